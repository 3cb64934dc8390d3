/**
 * The stand-in's expandable fields, as a property: for any expand list (any subset of the
 * answer's paths, in any order, repeated, mixed with strings that are no path) sent in the
 * query or in a JSON body, with any stand-in seed, every expandable field of the answer is
 * the object (valid as its type, its own expandable fields ids) exactly where its path was
 * listed, and the id everywhere else; the answer stays valid as the response type. The
 * feature fixture test/fixtures/features/expandable, its package generated once.
 */
import fc from "fast-check";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "../helpers.ts";
import { fuzzParameters, fuzzTimeout } from "./settings.ts";

const out = tempDir("apigen-expand-fuzz-");
let testing: any; // the generated testing entry, which exists only once this test made it
let validate: (check: unknown, value: unknown, path: string) => unknown[];
let validators: Record<string, unknown>;

beforeAll(async () => {
  await writeGenerated("test/fixtures/features/expandable", out, { validators: "all" });
  const load = (path: string) => import(pathToFileURL(join(out, path)).href);
  testing = await load("src/testing.ts");
  ({ validate } = await load("src/runtime/validate.ts"));
  validators = await load("src/validators.ts");
}, 60_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

const valid = (type: string, value: unknown) =>
  validate(validators[`validate${type}`], value, type).length === 0;

/** Each expandable path of a Payment, with the type of its object. */
const paymentPaths: [string, string][] = [
  ["customer", "Customer"],
  ["latest_charge", "Charge"],
  ["charges.customer", "Customer"],
  ["charges.card", "Card"],
];

/** Every value at a dotted path (arrays add no step), present and not null. */
function valuesAt(value: unknown, path: string): unknown[] {
  let current: unknown[] = [value];
  for (const step of path.split(".")) {
    current = current
      .flatMap((v) => (Array.isArray(v) ? v : [v]))
      .filter((v): v is Record<string, unknown> => v !== null && typeof v === "object")
      .map((v) => v[step]);
  }
  return current.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v) => v != null);
}

/** Whether `payment` holds objects exactly at the asked paths, and ids elsewhere. */
function expandedAsAsked(payment: unknown, asked: ReadonlySet<string>, prefix = ""): boolean {
  if (!valid("Payment", payment)) return false;
  return paymentPaths.every(([path, type]) =>
    valuesAt(payment, path).every((v) =>
      asked.has(`${prefix}${path}`)
        ? valid(type, v) &&
          // an expanded object's own expandable fields are ids
          (type !== "Charge" ||
            ["customer", "card"].every((f) => valuesAt(v, f).every((id) => typeof id === "string")))
        : typeof v === "string",
    ),
  );
}

const listOf = (paths: readonly string[]) =>
  fc.array(fc.oneof(fc.constantFrom(...paths), fc.string({ maxLength: 12 })), { maxLength: 8 });

describe("the stand-in's expandable fields, for any expand list", () => {
  it(
    "objects exactly at the listed paths, ids elsewhere: a query list, a JSON body field, a page's data. paths",
    async () => {
      const ask = async (
        standIn: any,
        method: string,
        path: string,
        body?: unknown,
      ): Promise<unknown> => {
        const response: Response = await standIn.fetch(
          new Request(`http://stand-in.test${path}`, {
            method,
            headers: { Authorization: "Bearer tok", "Content-Type": "application/json" },
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          }),
        );
        expect(response.status).toBe(200);
        return response.json();
      };
      const paths = paymentPaths.map(([p]) => p);
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          listOf(paths),
          listOf(paths.map((p) => `data.${p}`)),
          async (seed, list, pageList) => {
            const standIn = testing.createStandIn({ seed, keys: { token: { valid: ["tok"] } } });
            const query = list.map((p) => `expand[]=${encodeURIComponent(p)}`).join("&");
            const got = await ask(standIn, "GET", `/v1/payments/pay_1${query && `?${query}`}`);
            expect(expandedAsAsked(got, new Set(list))).toBe(true);
            const made = await ask(standIn, "POST", "/v1/payments", {
              amount: 1,
              customer: "cus_1",
              expand: list,
            });
            expect(expandedAsAsked(made, new Set(list))).toBe(true);
            const pageQuery = pageList.map((p) => `expand=${encodeURIComponent(p)}`).join("&");
            const page = (await ask(standIn, "GET", `/v1/payments?${pageQuery}`)) as {
              data: unknown[];
            };
            for (const item of page.data)
              expect(expandedAsAsked(item, new Set(pageList), "data.")).toBe(true);
          },
        ),
        fuzzParameters(150),
      );
    },
    fuzzTimeout(30_000),
  );
});
