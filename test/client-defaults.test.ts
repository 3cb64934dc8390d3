/**
 * `api.clientDefaults`: the package's own defaults for the client's timeout and retries
 * (for an API slower or flakier than most), which a caller's options still override.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";

const spec = `api:
  name: slow-api
  title: Slow API
  clientName: SlowClient
  version: 1.0.0
  clientDefaults: { timeoutMs: 150, maxRetries: 1 }
endpoints:
  items.get:
    method: GET
    path: /items/{id}
    params:
      id: string
    response:
      body: { fields: { id: string } }
`;

let dir: string;
let server: Server;
let baseUrl: string;
let attempts = 0;
/** What the stand-in server does: `fail` answers 503, `hang` never answers. */
let behaviour: "fail" | "hang" = "fail";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let generated: any;

beforeAll(async () => {
  dir = tempDir("apigen-client-defaults-");
  mkdirSync(join(dir, "spec"));
  writeFileSync(join(dir, "spec/api.yaml"), spec);
  await writeGenerated(join(dir, "spec"), join(dir, "out"));
  generated = await import(pathToFileURL(join(dir, "out/src/index.ts")).href);
  server = createServer((_req, res) => {
    attempts++;
    if (behaviour === "hang") return;
    res.writeHead(503, { "content-type": "application/json", "retry-after": "0" });
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("client defaults from the spec", () => {
  it("retries as often as the spec says, unless the caller says otherwise", async () => {
    behaviour = "fail";
    attempts = 0;
    const client = new generated.SlowClient({ baseUrl });
    await expect(client.items.get("a")).rejects.toMatchObject({ status: 503 });
    expect(attempts).toBe(2); // the spec's maxRetries: 1, not the runtime's 2
    attempts = 0;
    const once = new generated.SlowClient({ baseUrl, maxRetries: 0 });
    await expect(once.items.get("a")).rejects.toMatchObject({ status: 503 });
    expect(attempts).toBe(1);
  });

  it("times out when the spec says, unless the caller says otherwise", async () => {
    behaviour = "hang";
    const client = new generated.SlowClient({ baseUrl, maxRetries: 0 });
    const started = performance.now();
    await expect(client.items.get("a")).rejects.toBeInstanceOf(generated.TimeoutError);
    expect(performance.now() - started).toBeLessThan(5_000); // 150 ms, not the runtime's 60 s
    const patient = new generated.SlowClient({ baseUrl, maxRetries: 0, timeoutMs: 400 });
    await expect(patient.items.get("a")).rejects.toMatchObject({ timeoutMs: 400 });
  });
});
