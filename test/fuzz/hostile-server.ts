/**
 * A hostile stand-in for the API on 127.0.0.1 (port 0), for test/fuzz/client.fuzz.test.ts:
 * every request it receives is handed to the current handler, which may answer, lie, stall,
 * reset or write raw bytes; each is recorded with when it arrived and when the server was
 * done with it (its answer flushed or its connection closed).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  /** performance.now() when the request arrived. */
  arrived: number;
  /** performance.now() when the server was done with it; unset while it hangs. */
  done?: number;
}

/** Handles one request; `finished()` records that the server is done with it. */
export type Handler = (
  seen: Seen,
  res: ServerResponse,
  socket: Socket,
  finished: () => void,
) => void;

export class HostileServer {
  readonly seen: Seen[] = [];
  private handler: Handler = (_seen, res) => res.end();
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly port: number,
  ) {}

  static async start(): Promise<HostileServer> {
    let instance: HostileServer | undefined;
    const server = createServer((req, res) => {
      const seen: Seen = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        arrived: performance.now(),
      };
      instance!.seen.push(seen);
      const finished = () => (seen.done ??= performance.now());
      // One connection per request: no answer can land on a connection a later case reuses.
      res.setHeader("connection", "close");
      res
        .on("finish", finished)
        .on("close", finished)
        .on("error", () => {});
      req.resume();
      req.on("end", () => instance!.handler(seen, res, req.socket, finished));
    });
    server.on("connection", (socket: Socket) => {
      instance?.sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => instance?.sockets.delete(socket));
    });
    server.on("clientError", (_error, socket: Socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    instance = new HostileServer(server, `http://127.0.0.1:${port}`, port);
    return instance;
  }

  /** Hands every following request to `handler`, and forgets the requests seen. */
  handle(handler: Handler): void {
    this.seen.length = 0;
    this.handler = handler;
  }

  /** Ends every connection: requests left hanging, bodies still being written. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
