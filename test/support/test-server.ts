/**
 * A programmable HTTP server on 127.0.0.1 for client tests: each test sets how it answers,
 * and every request it received is recorded with its raw body.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Responder = (
  request: RecordedRequest,
  response: ServerResponse,
  socket: Socket,
) => void;

export class TestServer {
  readonly requests: RecordedRequest[] = [];
  private responder: Responder = (_req, res) => res.end("{}");
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<TestServer> {
    let instance: TestServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const recorded = {
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        };
        instance!.requests.push(recorded);
        instance!.responder(recorded, res, req.socket);
      });
    });
    server.on("connection", (socket) => {
      instance?.sockets.add(socket);
      socket.on("close", () => instance?.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    instance = new TestServer(server, `http://127.0.0.1:${port}`);
    return instance;
  }

  /** Answers every following request with `responder`, and forgets earlier requests. */
  respond(responder: Responder): void {
    this.requests.length = 0;
    this.responder = responder;
  }

  /** Answers with a JSON body. */
  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.respond((_req, res) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    });
  }

  /** Answers the n-th request (0-based) with the n-th responder, the last one after that. */
  sequence(...responders: Responder[]): void {
    this.respond((req, res, socket) =>
      responders[Math.min(this.requests.length - 1, responders.length - 1)]!(req, res, socket),
    );
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
