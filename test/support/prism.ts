/**
 * Stoplight Prism (`prism mock`) as a test server: started on 127.0.0.1 on a port the
 * system picks, from one OpenAPI document, and stopped by the test. Start-up and stop are
 * bounded in time; a Prism that does not start is killed and the start fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const prismBin = join(
  dirname(require.resolve("@stoplight/prism-cli/package.json")),
  "dist/index.js",
);

/** One Prism violation, as Prism reports it in the `sl-violations` response header. */
export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/** The violations Prism found in the request (not in its own mock response), from a response's headers. */
export function requestViolations(headers: Headers): Violation[] {
  const raw = headers.get("sl-violations");
  if (!raw) return [];
  return (JSON.parse(raw) as Violation[]).filter((v) => v.location[0] === "request");
}

export class PrismMock {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly log: () => string,
  ) {}

  /** Starts `prism mock` on `document` (a file path); resolves once it listens. */
  static start(document: string, timeoutMs = 60_000): Promise<PrismMock> {
    const child = spawn(
      process.execPath,
      [prismBin, "mock", "-h", "127.0.0.1", "-p", "0", document],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      },
    );
    let output = "";
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`prism mock did not start within ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const listening = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (listening) {
          clearTimeout(timer);
          resolve(new PrismMock(child, listening[1]!, () => output));
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`prism mock exited with ${code} before listening:\n${output}`));
      });
    });
  }

  /** Stops Prism: SIGTERM, then SIGKILL if it has not exited within 5 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
