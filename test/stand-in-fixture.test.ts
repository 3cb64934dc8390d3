/**
 * The stand-in of the `stand-in` feature fixture (test/fixtures/features/stand-in), in-process
 * through `fetch` (no port): what the model reads from a spec other than the Merchant one.
 * Credential-named codes per case, an area code, a query key and HTTP basic; a list error
 * body with a constant and a tagged one; examples and patterns in built bodies; a
 * registration with its id prefix and uniqueness rule; a lifecycle step with its `to`.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";

const out = tempDir("apigen-stand-in-fixture-");
type StandIn = {
  fetch(request: Request): Promise<Response>;
  state(): { lifecycles: Record<string, Record<string, string>> };
};
let standIn: StandIn;

beforeAll(async () => {
  await writeGenerated("test/fixtures/features/stand-in", out);
  const testing = await import(pathToFileURL(join(out, "src/testing.ts")).href);
  standIn = testing.createStandIn({
    keys: { apiKey: { valid: ["key-1"] }, operator: { valid: ["op:secret"] } },
  });
}, 60_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

async function ask(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
) {
  const res = await standIn.fetch(
    new Request(`http://stand-in.test${path}`, {
      method,
      headers: { "Content-Type": "application/json", ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const key = { "X-Key": "key-1" };

describe("stand-in of the stand-in feature fixture", () => {
  it("refuses credentials with the codes named for them, or the area's code", async () => {
    expect(await ask("GET", "/v1/items")).toMatchObject({
      status: 401,
      json: {
        problems: [{ code: 40, message: expect.stringMatching(/^X-Key is required/) }],
        ok: false,
      },
    });
    expect((await ask("GET", "/v1/items", { "X-Key": "other" })).json.problems[0].code).toBe(41);
    const area = await ask("POST", "/v1/admin/reset");
    expect([area.status, area.json.problems[0].code]).toEqual([401, 60]);
    const query = await ask("POST", "/v1/admin/reset", key);
    expect([query.status, query.json.problems[0].code]).toEqual([401, 50]);
    const reset = await ask("POST", "/v1/admin/reset?client_key=c1", key);
    expect(reset.status).toBe(204);
    expect(reset.headers.get("x-apigen-stand-in")).toBe("no response body in the spec");
  });

  it("builds bodies with the spec's examples and patterns, and validates parameters", async () => {
    const list = await ask("GET", "/v1/items?limit=5", key);
    expect(list.status).toBe(200);
    const [item] = list.json.items;
    expect(item.name).toBe("Blue mug");
    expect(item.sku).toMatch(/^[A-Z]{3}-\d{4}$/);
    const bad = await ask("GET", "/v1/items?limit=0", key);
    expect(bad.status).toBe(422);
    expect(bad.json.problems).toEqual([{ message: "params.limit: must be at least 1" }]);
  });

  it("keeps hooks with the hk_ prefix, refuses a duplicate by the spec's rule, deletes once", async () => {
    const hook = await ask("POST", "/v1/hooks", key, { url: "https://shop.example/h" });
    expect(hook.status).toBe(201);
    expect(hook.json.hook_id).toMatch(/^hk_/);
    const again = await ask("POST", "/v1/hooks", key, { url: "https://shop.example/h" });
    expect([again.status, again.json.problems[0].message]).toEqual([422, "Hooks must be unique."]);
    expect((await ask("DELETE", `/v1/hooks/${hook.json.hook_id}`, key)).status).toBe(204);
    expect((await ask("DELETE", `/v1/hooks/${hook.json.hook_id}`, key)).status).toBe(404);
  });

  it("checks HTTP basic, answers the tagged body on /v2/, and records the lifecycle's `to`", async () => {
    const missing = await ask("POST", "/v2/tickets/t1/close");
    expect(missing).toMatchObject({ status: 401, json: { tag: "unauthorized" } });
    const basic = { Authorization: `Basic ${btoa("op:secret")}` };
    const wrong = await ask("POST", "/v2/tickets/t1/close", {
      Authorization: `Basic ${btoa("op:x")}`,
    });
    expect(wrong.status).toBe(401);
    const closed = await ask("POST", "/v2/tickets/t1/close", basic);
    expect(closed.status).toBe(200);
    expect(standIn.state().lifecycles).toEqual({ Ticket: { t1: "closed" } });
    const preferred = await ask("POST", "/v2/tickets/t1/close", { ...basic, Prefer: "code=400" });
    expect(preferred).toMatchObject({ status: 400, json: { tag: "not_closable" } });
  });
});
