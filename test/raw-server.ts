/**
 * A raw TCP server on 127.0.0.1 that answers HTTP requests with whatever bytes a test
 * writes: a status line that is not one, a lying `Content-Length`, a body that never ends or
 * stalls. node:http's server would fix up or refuse most of what these tests need to send.
 * Each connection is handed to the current `answer` once the request's head is in; closing
 * the server destroys every connection still open.
 */
import { createServer, type Server, type Socket } from "node:net";

/** Answers one connection: `request` is the request's text so far (its head, at least). */
export type RawAnswer = (socket: Socket, request: string) => void;

export class RawServer {
  private readonly sockets = new Set<Socket>();
  /** What the next connection gets. */
  answer: RawAnswer = (socket) => socket.destroy();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** A server listening on a free port of 127.0.0.1. */
  static async start(answer?: RawAnswer): Promise<RawServer> {
    let instance: RawServer | undefined;
    const server = createServer((socket) => {
      instance!.sockets.add(socket);
      socket.on("close", () => instance!.sockets.delete(socket));
      socket.on("error", () => undefined);
      let request = "";
      let answered = false;
      socket.on("data", (chunk: Buffer) => {
        request += chunk.toString("latin1");
        if (!answered && request.includes("\r\n\r\n")) {
          answered = true;
          instance!.answer(socket, request);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    instance = new RawServer(server, `http://127.0.0.1:${port}`);
    if (answer) instance.answer = answer;
    return instance;
  }

  /** Destroys every connection still open (a stream still writing, a stall). */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  close(): Promise<void> {
    this.dropConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Writes `chunk` every `everyMs` until the socket is destroyed or `stopAfterMs` has passed. */
export async function writeEvery(
  socket: Socket,
  chunk: Buffer | string,
  everyMs: number,
  stopAfterMs: number,
): Promise<void> {
  const until = Date.now() + stopAfterMs;
  while (!socket.destroyed && Date.now() < until) {
    socket.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
