/**
 * A fuzz case of test/fuzz/router-requests.ts on the wire: as a Fetch `Request` for
 * `router.fetch`, and as raw HTTP/1.1 steps (test/callbacks-raw.ts) for `router.node`. The
 * signature header is computed from the bytes each one carries. The framing itself
 * (`framedRequest`, `framedWire`) serves the stand-in's fuzzer too.
 */
import { chunk, requestHead, type RawStep } from "../callbacks-raw.ts";
import { signatureLines, type Framing, type RouterCase } from "./router-requests.ts";

/** Header that asks the `custom` scheme's key service to fail (see router.fuzz.test.ts). */
export const outageHeader = "x-test-key-outage";

/** Whether the framing delivers the whole body in time. */
export const honest = (f: Framing) => f.kind === "length" || f.kind === "chunked";
/** Whether the framing leaves the router waiting for the body. */
export const stalls = (f: Framing) => f.kind === "stall" || (f.kind === "long" && !f.fin);

/** The body cut at `cuts`, as pieces (none empty), with the pauses between them. */
function pieces(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  if (bytes.byteLength === 0) return [];
  const at = [...new Set(cuts.map((n) => n % bytes.byteLength).filter((n) => n > 0))].sort(
    (a, b) => a - b,
  );
  const bounds = [0, ...at, bytes.byteLength];
  return bounds.slice(1).map((end, i) => bytes.subarray(bounds[i]!, end));
}

/** The case as a `Request`, when Fetch can express it; the bytes it carries; whether it stalls. */
export function asRequest(
  c: RouterCase,
): { request: Request; sent: Uint8Array; stalled: boolean } | undefined {
  const url = c.target.startsWith("/") ? `http://merchant.test${c.target}` : c.target;
  const bodyAllowed = c.method !== "GET" && c.method !== "HEAD";
  const sent = bodyAllowed ? c.body : new Uint8Array(0);
  const headers: [string, string][] = [];
  for (const value of signatureLines(c.signature, sent, c.seed))
    headers.push([c.headerName, value]);
  headers.push(...c.extraHeaders);
  if (c.outage !== "none") headers.push([outageHeader, c.outage]);
  return framedRequest(url, c.method, headers, c.body, c.framing);
}

/**
 * A request as a Fetch `Request` framed as `framing` says (pieces with pauses, a stall, a
 * lying `Content-Length`), when Fetch can express it (else `undefined`): the bytes it
 * carries (none for GET and HEAD) and whether it stalls.
 */
export function framedRequest(
  url: string,
  method: string,
  headerLines: readonly (readonly [string, string])[],
  bytes: Uint8Array,
  framing: Framing,
): { request: Request; sent: Uint8Array; stalled: boolean } | undefined {
  const bodyAllowed = method !== "GET" && method !== "HEAD";
  const sent = bodyAllowed ? bytes : new Uint8Array(0);
  try {
    const headers = new Headers();
    for (const [name, value] of headerLines) headers.append(name, value);
    if (framing.kind === "long")
      headers.set("content-length", String(sent.byteLength + framing.extra));
    if (framing.kind === "short") headers.set("content-length", String(framing.keep));
    if (framing.kind === "both") headers.set("transfer-encoding", "chunked");
    const stalled = bodyAllowed && stalls(framing);
    let body: BodyInit | null = bodyAllowed ? (sent as Uint8Array<ArrayBuffer>) : null;
    if (bodyAllowed && (stalled || framing.kind === "length" || framing.kind === "chunked")) {
      const parts = stalled
        ? pieces(sent, [sent.byteLength >> 1]).slice(0, 1)
        : pieces(sent, framing.kind === "length" || framing.kind === "chunked" ? framing.cuts : []);
      const pauses = framing.kind === "length" || framing.kind === "chunked" ? framing.pauses : [];
      let i = 0;
      body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (i < parts.length) {
            if (i > 0 && pauses[i - 1]) await new Promise((r) => setTimeout(r, pauses[i - 1]));
            controller.enqueue(parts[i++]!);
          } else if (!stalled) controller.close();
          else await new Promise(() => undefined);
        },
      });
    }
    const request = new Request(url, { method, headers, body, duplex: "half" } as RequestInit);
    return { request, sent, stalled };
  } catch {
    return undefined;
  }
}

/** The case as raw HTTP/1.1: the steps to write and whether to half-close after them (a client giving up). */
export function asWire(c: RouterCase): { steps: RawStep[]; endAfter: boolean; sent: Uint8Array } {
  // a keep-alive client that closes nothing early: node:http drops an answer still to come
  // after a half-close, and one sent before the body was read when it must then close
  const headers: [string, string][] = [["host", "merchant.test"]];
  for (const value of signatureLines(c.signature, c.body, c.seed))
    headers.push([c.headerName, value]);
  headers.push(...c.extraHeaders);
  if (c.outage !== "none") headers.push([outageHeader, c.outage]);
  return framedWire(c.method, c.target, headers, c.body, c.framing);
}

/**
 * A request as raw HTTP/1.1 framed as `framing` says: the steps to write (the head with the
 * framing headers added to `headerLines`, the body's pieces and pauses) and whether to
 * half-close after them.
 */
export function framedWire(
  method: string,
  target: string,
  headerLines: readonly (readonly [string, string])[],
  bytes: Uint8Array,
  framing: Framing,
): { steps: RawStep[]; endAfter: boolean; sent: Uint8Array } {
  const headers = [...headerLines];
  const steps: RawStep[] = [];
  const length = (n: number) => headers.push(["content-length", String(n)]);
  const chunked = () => headers.push(["transfer-encoding", "chunked"]);
  switch (framing.kind) {
    case "length":
    case "chunked": {
      const parts = pieces(bytes, framing.cuts);
      if (framing.kind === "length") length(bytes.byteLength);
      else chunked();
      steps.push(requestHead(method, target, headers));
      parts.forEach((part, i) => {
        if (i > 0 && framing.pauses[i - 1]) steps.push({ pause: framing.pauses[i - 1]! });
        steps.push(framing.kind === "length" ? part : chunk(part));
      });
      if (framing.kind === "chunked") steps.push("0\r\n\r\n");
      return { steps, endAfter: false, sent: bytes };
    }
    case "long":
      length(bytes.byteLength + framing.extra);
      return {
        steps: [requestHead(method, target, headers), bytes],
        endAfter: framing.fin,
        sent: bytes,
      };
    case "short": {
      const keep = Math.min(framing.keep, Math.max(0, bytes.byteLength - 1));
      length(keep);
      return {
        steps: [requestHead(method, target, headers), bytes],
        endAfter: false,
        sent: bytes,
      };
    }
    case "stall":
      chunked();
      return {
        steps: [
          requestHead(method, target, headers),
          ...pieces(bytes, [bytes.byteLength >> 1])
            .slice(0, 1)
            .map(chunk),
        ],
        endAfter: false,
        sent: bytes,
      };
    case "both":
      length(bytes.byteLength);
      chunked();
      return {
        steps: [requestHead(method, target, headers), chunk(bytes), "0\r\n\r\n"],
        endAfter: false,
        sent: bytes,
      };
    default: {
      const unhandled: never = framing;
      throw new Error(`unknown framing ${JSON.stringify(unhandled)}`);
    }
  }
}
