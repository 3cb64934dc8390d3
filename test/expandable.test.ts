/**
 * Expandable fields tied to the request (test/fixtures/features/expandable): the generated
 * stand-in served on 127.0.0.1 answers each expandable field as the object where the call
 * listed its path (query parameter or JSON body field, a page's items by `data.` paths) and
 * as the id where it did not; the generated client sends the list; and the result's type
 * follows it, held by a consumer file type-checked with TypeScript 6 and 7 (each mistake
 * marked `@ts-expect-error`, so a looser type fails the run).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";
import { checkUsage } from "./support/usage-check.ts";

const out = tempDir("apigen-expandable-");
let running: { url: string; close(): Promise<void> };
let client: any; // typed by the generated package, which exists only once this test made it
let validate: (check: unknown, value: unknown, path: string) => { path: string }[];
let validators: Record<string, unknown>;
const requests: string[] = [];

beforeAll(async () => {
  await writeGenerated("test/fixtures/features/expandable", out, { validators: "all" });
  const load = (path: string) => import(pathToFileURL(join(out, path)).href);
  const testing = await load("src/testing.ts");
  const index = await load("src/index.ts");
  ({ validate } = await load("src/runtime/validate.ts"));
  validators = await load("src/validators.ts");
  running = await testing.listen(
    testing.createStandIn({ seed: 5, keys: { token: { valid: ["tok"] } } }),
  );
  const seen: typeof fetch = (input, init) => {
    requests.push(input instanceof Request ? input.url : String(input));
    return fetch(input, init);
  };
  client = new index.ExpandableClient({
    baseUrl: running.url,
    token: "tok",
    maxRetries: 0,
    fetch: seen,
  });
}, 60_000);

afterAll(async () => {
  await running?.close();
  rmSync(out, { recursive: true, force: true });
});

const problems = (type: string, value: unknown) =>
  validate(validators[`validate${type}`], value, type);
const isId = (prefix: string) => (v: unknown) => typeof v === "string" && v.startsWith(prefix);

describe("expandable fields through the stand-in and the client", () => {
  it("answers ids where nothing is asked, the objects of the listed paths, and ids for the rest", async () => {
    const plain = await client.payments.get("pay_1");
    expect(problems("Payment", plain)).toEqual([]);
    expect(plain.customer === null || isId("cus_")(plain.customer)).toBe(true);
    expect(typeof plain.latest_charge).toBe("string");
    for (const charge of plain.charges) {
      expect(isId("cus_")(charge.customer)).toBe(true);
      expect(charge.card === null || typeof charge.card === "string").toBe(true);
    }

    const asked = await client.payments.get("pay_1", { expand: ["customer", "charges.card"] });
    expect(requests.at(-1)).toContain("?expand[]=customer&expand[]=charges.card");
    expect(problems("Payment", asked)).toEqual([]);
    if (asked.customer !== null) expect(problems("Customer", asked.customer)).toEqual([]);
    expect(typeof asked.latest_charge).toBe("string");
    expect(asked.charges.length).toBeGreaterThan(0);
    for (const charge of asked.charges) {
      expect(isId("cus_")(charge.customer)).toBe(true);
      if (charge.card !== null) expect(problems("Card", charge.card)).toEqual([]);
    }
    // Both answers are of one seed: the same request without the list gives ids again.
    const again = await client.payments.get("pay_1");
    expect(again).toEqual(plain);
  });

  it("reads the list from a JSON body field (payments.create)", async () => {
    const made = await client.payments.create({
      amount: 100,
      customer: "cus_1",
      expand: ["latest_charge", "customer"],
    });
    expect(problems("Charge", made.latest_charge)).toEqual([]);
    expect(isId("cus_")(made.latest_charge.customer)).toBe(true);
    if (made.customer !== null) expect(problems("Customer", made.customer)).toEqual([]);
  });

  it("expands a page's items by their data. paths, and walks them with for await", async () => {
    const items: any[] = [];
    for await (const payment of client.payments.list({ expand: ["data.latest_charge"] }))
      items.push(payment);
    expect(items.length).toBeGreaterThan(0);
    for (const payment of items) {
      expect(problems("Charge", payment.latest_charge)).toEqual([]);
      expect(payment.customer === null || isId("cus_")(payment.customer)).toBe(true);
    }
  });

  it("types the result by what was asked: TypeScript 6 and 7 accept the right reads and refuse the wrong ones", () => {
    for (const run of checkUsage(out, "expand-usage.ts", usage)) {
      expect(run.output, run.compiler).toBe("");
      expect(run.status, run.compiler).toBe(0);
    }
  }, 120_000);
});

/** A consumer of the generated package: what compiles, and each mistake marked. */
const usage = `import { ExpandableClient, type Card, type Charge, type Customer } from "./index.js";

export async function reads(c: ExpandableClient): Promise<void> {
  const plain = await c.payments.get("pay_1");
  const id: string | null = plain.customer;
  const charge: string = plain.latest_charge;
  // @ts-expect-error not asked for: the customer is an id
  const notAsked: Customer | null = plain.customer;

  const asked = await c.payments.get("pay_1", { expand: ["customer", "charges.card"] });
  const customer: Customer | null = asked.customer;
  const card: Card | null = asked.charges[0]!.card;
  const stillId: string = asked.charges[0]!.customer;
  // @ts-expect-error latest_charge was not listed: an id
  const notListed: Charge = asked.latest_charge;
  // @ts-expect-error a path the answer does not have
  await c.payments.get("pay_1", { expand: ["nothing"] });

  const made = await c.payments.create({ amount: 1, customer: "cus_1", expand: ["latest_charge"] });
  const latest: Charge = made.latest_charge;
  // @ts-expect-error a page's path is not a payment's
  await c.payments.create({ amount: 1, customer: "cus_1", expand: ["data.customer"] });

  const page = await c.payments.list({ expand: ["data.customer"] });
  const onPage: Customer | null = page.data[0]!.customer;
  for await (const item of c.payments.list({ expand: ["data.customer"] })) {
    const inItem: Customer | null = item.customer;
    // @ts-expect-error only data.customer was listed
    const other: Charge = item.latest_charge;
    void [inItem, other];
  }

  // A list of unknown length narrows nothing: each field is an id or the object.
  const some: "customer"[] = ["customer"];
  const either = await c.payments.get("pay_1", { expand: some });
  const both: string | Customer | null = either.customer;
  // @ts-expect-error the list's entries are not known
  const assumed: Customer | null = either.customer;

  // An endpoint without expand: the field as declared.
  const raw = await c.charges.get("ch_1");
  const declared: string | Customer = raw.customer;
  void [id, charge, notAsked, customer, card, stillId, notListed, latest, onPage, both, assumed, declared];
}
`;
