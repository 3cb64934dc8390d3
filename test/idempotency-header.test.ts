/**
 * The spec's idempotency header (`idempotency.header`) is the header the client sends
 * `idempotencyKey` in: a hand-written trial of Stripe's API found it reached only the OpenAPI
 * document, the client sending `Idempotency-Key` whatever the spec said. A server on
 * 127.0.0.1 reads the headers of each call.
 */
import { rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";

const spec = `api: { name: idem, title: Idem, version: 1.0.0, clientName: IdemClient }
idempotency: { supported: true, header: X-Idem-Key }
endpoints:
  items.create:
    method: POST
    path: /items
    headers: { Content-Type: application/json }
    body: Item
    response: { status: 200, body: Item }
types:
  Item:
    fields:
      id: string
`;

let dir: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pkg: any;
const seen: IncomingHttpHeaders[] = [];
const server = createServer((req, res) => {
  seen.push(req.headers);
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"id":"i1"}');
  });
});
let baseUrl: string;

beforeAll(async () => {
  dir = tempDir("apigen-idempotency-");
  writeFileSync(join(dir, "api.yaml"), spec);
  await writeGenerated(dir, join(dir, "pkg"));
  pkg = await import(pathToFileURL(join(dir, "pkg/src/index.ts")).href);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("idempotency.header", () => {
  it("carries the call's idempotencyKey in the header the spec names, unless the caller names another", async () => {
    seen.length = 0;
    await new pkg.IdemClient({ baseUrl }).items.create({ id: "a" }, { idempotencyKey: "k1" });
    await new pkg.IdemClient({ baseUrl, idempotencyHeader: "X-Other" }).items.create(
      { id: "a" },
      { idempotencyKey: "k2" },
    );
    expect(seen[0]!["x-idem-key"]).toBe("k1");
    expect(seen[0]!["idempotency-key"]).toBeUndefined();
    expect(seen[1]!["x-other"]).toBe("k2");
  });
});
