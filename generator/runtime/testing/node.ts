/**
 * The stand-in on a real port with node:http, for a merchant's tests and for a laptop,
 * through the node:http listener the callback router uses (../http/node.ts): the body read
 * under the stand-in's size and time limits, every request answered or its connection
 * closed, nothing thrown out of the listener. Node is reached only when `listen` runs
 * (through `process.getBuiltinModule`, or an import whose name no bundler follows), so the
 * stand-in itself stays on Web APIs and the package type-checks without Node's types.
 */
import { createNodeListener, type NodeRequestLike, type NodeResponseLike } from "../http/node.js";
import { coreFor } from "./core.js";
import { deliveryControl, standInCore, type StandIn } from "./stand-in.js";

interface NodeServer {
  listen(port: number, host: string, done: () => void): unknown;
  address(): { port: number } | string | null;
  close(done: () => void): unknown;
  closeAllConnections?(): void;
  once(event: "error", listener: (error: Error) => void): unknown;
}

interface NodeHttp {
  createServer(listener: (req: NodeRequestLike, res: NodeResponseLike) => void): NodeServer;
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

/**
 * A node request as a Fetch `Request` (method, address and headers; no body), for the
 * `prefer` option. Only routed requests get here, so the method is one a `Request` takes; a
 * header `Headers` refuses is left out.
 */
function requestOf(req: NodeRequestLike, origin: string, method: string, target: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    try {
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    } catch {
      // not a header a Request can carry
    }
  }
  // joined as text: `new URL("//host/x", origin)` would read `//host` as a host
  const url = new URL(target.startsWith("/") ? origin + target : target);
  return new Request(url, { method, headers });
}

/** Writes the answer to a delivery request (`deliveryControl`); its body is not read. */
async function answerControl(
  answer: Promise<Response>,
  req: NodeRequestLike,
  res: NodeResponseLike,
): Promise<void> {
  req.resume?.();
  const response = await answer;
  const text = await response.text();
  res.writeHead(response.status, { "Content-Type": "application/json" });
  res.end(text);
}

/** Serves the stand-in on `host` (127.0.0.1 by default) and `port` (0: a free one). */
export async function listen(
  standIn: StandIn,
  options: { port?: number; host?: string } = {},
): Promise<RunningStandIn> {
  const core = standInCore(standIn);
  if (!core) throw new TypeError("listen: give it a stand-in made by createStandIn");
  const http = await nodeHttp();
  const host = options.host ?? "127.0.0.1";
  let origin = "";
  const server = http.createServer((req, res) => {
    const control = deliveryControl(standIn, req.method ?? "GET", req.url ?? "/");
    if (control) return void answerControl(control, req, res);
    const request = () => requestOf(req, origin, req.method ?? "GET", req.url ?? "/");
    createNodeListener(coreFor(core, request))(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
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
