/**
 * The stand-in on a real port with node:http, for a merchant's tests and for a laptop. Node
 * is reached only when `listen` runs (through `process.getBuiltinModule`, or an import whose
 * name no bundler follows), so the stand-in itself stays on Web APIs and the package
 * type-checks without Node's types.
 */
import type { StandIn } from "./stand-in.js";

/** The part of node:http's request the listener reads. */
interface NodeRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  destroy(): unknown;
}

/** The part of node:http's response the listener writes. */
interface NodeResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: Uint8Array): unknown;
}

interface NodeServer {
  listen(port: number, host: string, done: () => void): unknown;
  address(): { port: number } | string | null;
  close(done: () => void): unknown;
  closeAllConnections?(): void;
  once(event: "error", listener: (error: Error) => void): unknown;
}

interface NodeHttp {
  createServer(listener: (req: NodeRequest, res: NodeResponse) => void): NodeServer;
}

/** A stand-in listening on a port. */
export interface RunningStandIn {
  /** `http://127.0.0.1:PORT`: the base address to give the client. */
  url: string;
  port: number;
  close(): Promise<void>;
}

async function nodeHttp(): Promise<NodeHttp> {
  const host = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process;
  const builtin = host?.getBuiltinModule?.("node:http") as NodeHttp | undefined;
  if (builtin) return builtin;
  const name = "node:http";
  return (await import(/* @vite-ignore */ name)) as NodeHttp;
}

/** Collects a request's body; the stand-in applies its own size limit to it. */
function toRequest(req: NodeRequest, origin: string, limit: number): Promise<Request> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.byteLength;
      // Past the limit the bytes are dropped: the stand-in answers 413 from the length alone.
      if (size <= limit) chunks.push(chunk);
    });
    let ended = false;
    req.on("error", reject);
    // A sender that goes away before the end leaves nothing to answer.
    req.on("close", () => ended || reject(new Error("the request was aborted")));
    req.on("end", () => {
      ended = true;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      const method = (req.method ?? "GET").toUpperCase();
      // The body is handed over whole: its length is the body's own, not the header's.
      headers.delete("content-length");
      headers.delete("transfer-encoding");
      const body = size > limit ? new Uint8Array(limit + 1) : concat(chunks, size);
      resolve(
        new Request(new URL(req.url ?? "/", origin), {
          method,
          headers,
          ...(method === "GET" || method === "HEAD" ? {} : { body }),
        }),
      );
    });
  });
}

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) (out.set(chunk, at), (at += chunk.byteLength));
  return out;
}

/** Serves the stand-in on `host` (127.0.0.1 by default) and `port` (0: a free one). */
export async function listen(
  standIn: StandIn,
  options: { port?: number; host?: string; maxBodyBytes?: number } = {},
): Promise<RunningStandIn> {
  const http = await nodeHttp();
  const host = options.host ?? "127.0.0.1";
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  let origin = "";
  const server = http.createServer((req, res) => {
    toRequest(req, origin, limit)
      .then((request) => standIn.fetch(request))
      .then(async (response) => {
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => (headers[name] = value));
        res.writeHead(response.status, headers);
        res.end(new Uint8Array(await response.arrayBuffer()));
      })
      .catch(() => req.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  origin = `http://${host}:${port}`;
  return {
    url: origin,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
