/**
 * Generic types end to end (test/fixtures/features/generics): the generated stand-in served on
 * 127.0.0.1 and driven by the generated client. Each use of a generic type (`List<Customer>`,
 * `Envelope<Maybe<Customer>>`, `Tree<string>`, `List<List<Order>>`) is a type of its own to the
 * stand-in and the validators: its answers hold that use's shape, a body that misses a field
 * of the generic's body is refused by the client before sending and by the stand-in when sent
 * anyway, and paging walks the items of a `List<Customer>`.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";

const out = tempDir("apigen-generics-");
let running: { url: string; close(): Promise<void> };
let client: any; // typed by the generated package, which exists only once this test made it
let validate: (check: unknown, value: unknown, path: string) => { path: string }[];
let validators: Record<string, unknown>;

beforeAll(async () => {
  await writeGenerated("test/fixtures/features/generics", out, { validators: "all" });
  const load = (path: string) => import(pathToFileURL(join(out, path)).href);
  const testing = await load("src/testing.ts");
  const index = await load("src/index.ts");
  ({ validate } = await load("src/runtime/validate.ts"));
  validators = await load("src/validators.ts");
  running = await testing.listen(
    testing.createStandIn({ seed: 3, keys: { token: { valid: ["tok"] } } }),
  );
  client = new index.GenericsClient({ baseUrl: running.url, token: "tok", maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await running?.close();
  rmSync(out, { recursive: true, force: true });
});

const problems = (type: string, value: unknown) =>
  validate(validators[`validate${type}`], value, type);

describe("generic types through the stand-in and the client", () => {
  it("answers each use in its own shape: List<Customer>, Envelope<Maybe<Customer>>, Tree<string>, List<List<Order>>", async () => {
    const page = await client.customers.list();
    expect(page.object).toBe("list");
    expect(problems("ListCustomer", page)).toEqual([]);
    // The same answer is not a List<Order>: the argument is checked, not only the list.
    if (page.data.length) expect(problems("ListOrder_2", page).length).toBeGreaterThan(0);
    expect(
      problems("EnvelopeMaybeCustomer", await client.customers.find({ email: "a@b.c" })),
    ).toEqual([]);
    expect(problems("TreeString", await client.tags.tree())).toEqual([]);
    const batches = await client.orders.batches();
    expect(problems("ListListOrder", batches)).toEqual([]);
    for (const batch of batches.data) expect(problems("ListOrder_2", batch)).toEqual([]);
  });

  it("walks the items of a List<Customer> page by page", async () => {
    const seen: unknown[] = [];
    for await (const customer of client.customers.list({ limit: 2 })) seen.push(customer);
    expect(seen.length).toBeGreaterThan(0);
    for (const customer of seen) expect(problems("Customer", customer)).toEqual([]);
  });

  it("checks a body of a use (Envelope<Search>) in the client, and the stand-in checks it when sent anyway", async () => {
    const body = { request_id: "req_1", payload: { query: "shoes" } };
    expect(problems("SliceOrderString", await client.orders.search(body))).toEqual([]);
    // `payload` is the generic's `T`, required: without it the client sends nothing.
    await expect(client.orders.search({ request_id: "req_1" })).rejects.toThrow(/payload/);
    // `payload.query` is Search's own field, required in this use.
    await expect(client.orders.search({ request_id: "req_1", payload: {} })).rejects.toThrow(
      /payload\.query/,
    );
    const raw = await fetch(`${running.url}/v1/orders/search`, {
      method: "POST",
      headers: { Authorization: "Bearer tok", "Content-Type": "application/json" },
      body: JSON.stringify({ request_id: "req_1", payload: { query: 7 } }),
    });
    expect(raw.status).toBe(400);
    expect(JSON.stringify(await raw.json())).toContain("payload.query");
  });
});
