/**
 * Raw HTTP/1.1 over a TCP socket to a test server on 127.0.0.1: the bytes go out exactly as
 * given (a lying Content-Length, chunked framing by hand, repeated headers, pauses between
 * pieces), and everything the server writes back is kept until it closes the connection.
 * node:http's client would fix up or refuse most of what these tests need to send.
 */
import { connect } from "node:net";

/** One step of a raw exchange: bytes to write, or a pause in milliseconds. */
export type RawStep = Uint8Array | string | { pause: number };

/** One response as the server wrote it. */
export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated ones joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
  /** The whole body is in (else the connection closed, or the wait ended, first). */
  complete: boolean;
}

/** What came back from a raw exchange. */
export interface RawExchange {
  /** Every byte the server wrote. */
  raw: Buffer;
  /** The server closed the connection; `false` when the wait ran out first. */
  closed: boolean;
  /** Milliseconds from connecting to the close (or to the end of the wait). */
  elapsedMs: number;
  /** The first response, parsed, when there is a whole one. */
  first: RawResponse | undefined;
  /** Status of every response in `raw`, in order. */
  statuses: number[];
}

export interface RawOptions {
  /** Longest wait for the server to close, in ms (then the client closes). Default 5000. */
  waitMs?: number;
  /** Half-close (FIN) after the last step, as a client that sent everything does. Default true. */
  endAfter?: boolean;
  /** The request is a HEAD: its response has no body whatever Content-Length says. */
  head?: boolean;
  /**
   * `close` (default): wait until the server closes the connection. `answer`: stop at the
   * first whole response, as a keep-alive client does.
   */
  until?: "close" | "answer";
}

/** A request head: request line and header lines, with the blank line. */
export function requestHead(
  method: string,
  target: string,
  headers: readonly (readonly [string, string])[],
): string {
  return `${method} ${target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n`;
}

/** `bytes` as one chunk of chunked transfer encoding (an empty one is the last chunk). */
export function chunk(bytes: Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from(`${bytes.byteLength.toString(16)}\r\n`),
    Buffer.from(bytes),
    Buffer.from("\r\n"),
  ]);
}

/** Sends `steps` over a fresh connection to `port` and collects the answer until the server closes. */
export function rawExchange(
  port: number,
  steps: readonly RawStep[],
  options: RawOptions = {},
): Promise<RawExchange> {
  const { waitMs = 5000, endAfter = true } = options;
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, allowHalfOpen: true });
    const parts: Buffer[] = [];
    let closed = false;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(parts);
      resolve({
        raw,
        closed,
        elapsedMs: performance.now() - started,
        first: parseFirst(raw, options.head === true),
        statuses: [...raw.toString("latin1").matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3}) /g)].map(
          (m) => Number(m[1]),
        ),
      });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("data", (data: Buffer) => {
      parts.push(data);
      if (options.until === "answer" && parseFirst(Buffer.concat(parts), options.head)?.complete)
        finish();
    });
    socket.on("end", () => {
      closed = true;
      finish();
    });
    socket.on("close", () => {
      closed = true;
      finish();
    });
    // the server may answer and close before everything is written: that is not a failure here
    socket.on("error", () => undefined);
    socket.once("connect", async () => {
      for (const step of steps) {
        if (socket.destroyed || finished) return;
        if (typeof step === "object" && "pause" in step)
          await new Promise((r) => setTimeout(r, step.pause));
        else socket.write(step);
      }
      if (endAfter && !socket.destroyed) socket.end();
    });
  });
}

/** The first response in `raw`: status line, headers, and a body framed by Content-Length or chunks. */
export function parseFirst(raw: Buffer, head = false): RawResponse | undefined {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const lines = raw.subarray(0, end).toString("latin1").split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "");
  if (!status) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const at = line.indexOf(":");
    const name = line.slice(0, at).trim().toLowerCase();
    const value = line.slice(at + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  let rest = raw.subarray(end + 4);
  const code = Number(status[1]);
  const response = (body: Buffer, complete: boolean) => ({ status: code, headers, body, complete });
  if (head || code === 204 || code === 304) return response(Buffer.alloc(0), true);
  if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    return response(rest.subarray(0, length), rest.byteLength >= length);
  }
  // no framing: the body runs to the close
  if (!/chunked/i.test(headers["transfer-encoding"] ?? "")) return response(rest, false);
  const body: Buffer[] = [];
  for (;;) {
    const line = rest.indexOf("\r\n");
    const size = line < 0 ? NaN : parseInt(rest.subarray(0, line).toString("latin1"), 16);
    if (!(size >= 0)) return response(Buffer.concat(body), false);
    if (size === 0) return response(Buffer.concat(body), true);
    body.push(rest.subarray(line + 2, line + 2 + size));
    rest = rest.subarray(line + 2 + size + 2);
  }
}
