/**
 * Regression tests of issue 11 for the validators: each defect the issue listed or the
 * validator fuzz test (test/fuzz/validators.fuzz.test.ts) found, as its smallest failing
 * case. Validators report, never throw; they stop at a nesting limit and at a cycle, list at
 * most `maxIssues` problems, read a sparse array's holes, and name a wrong value by its kind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCallbackRouter } from "../generated/src/callbacks.ts";
import {
  anything,
  array,
  map,
  maxDepth,
  maxIssues,
  nullable,
  number,
  object,
  oneOf,
  string,
  validate,
  type Validator,
} from "../generator/runtime/validate.ts";
import { union } from "../generator/runtime/unions.ts";
import {
  recordingHandlers,
  secret,
  sign,
  signatureHeader,
  type Call,
} from "./callbacks-helpers.ts";
import { validatorsOfAllTypes } from "./helpers.ts";

// Transaction, recursive and wide, is a response type: the package itself has no validator
// of it (ir/validated.ts), a generation with every validator has.
let validateTransaction: Validator;
let dispose: (() => void) | undefined;
beforeAll(async () => {
  const all = await validatorsOfAllTypes("spec");
  dispose = all.dispose;
  validateTransaction = all.validators.validateTransaction!;
});
afterAll(() => dispose?.());

/** Runs a generated validator as the router does, timing it. */
function check(
  validator: Validator,
  value: unknown,
): { issues: ReturnType<typeof validate>; ms: number } {
  const started = performance.now();
  const issues = validate(validator, value, "body");
  return { issues, ms: performance.now() - started };
}

describe("validators on hostile values (issue 11)", () => {
  it("report a transaction nested 1,300 deep (a 46 KB body) at the nesting limit instead of overflowing the stack", () => {
    const levels = 1_300;
    const text = `${'{"id":"t","adjust_transactions":['.repeat(levels)}{}${"]}".repeat(levels)}`;
    expect(text.length).toBeGreaterThan(45_000);
    const { issues } = check(validateTransaction, JSON.parse(text));
    // Each level is an object and an array: the limit is reached at the 32nd transaction.
    expect(issues).toEqual([
      {
        path: `body${".adjust_transactions[0]".repeat(maxDepth / 2)}`,
        message: `is nested deeper than ${maxDepth} levels`,
      },
    ]);
    expect(maxDepth).toBe(64);
  });

  it("check a value exactly at the nesting limit", () => {
    let value: unknown = {};
    for (let i = 0; i < maxDepth / 2 - 1; i++) value = { adjust_transactions: [value] };
    expect(check(validateTransaction, value).issues).toEqual([]);
  });

  it("report a cycle where it closes, quickly even when it branches", () => {
    const t: { adjust_transactions?: unknown[] } = {};
    t.adjust_transactions = [t, { refund_transactions: [t] }];
    expect(check(validateTransaction, t).issues).toEqual([
      { path: "body.adjust_transactions[0]", message: "is a cycle: the same value as body" },
      {
        path: "body.adjust_transactions[1].refund_transactions[0]",
        message: "is a cycle: the same value as body",
      },
    ]);
    // Twenty branches per level: walked without the cycle check, 20^64 calls.
    const wide: { adjust_transactions?: unknown[] } = {};
    wide.adjust_transactions = new Array(20).fill({
      adjust_transactions: new Array(20).fill(wide),
    });
    const { issues, ms } = check(validateTransaction, wide);
    expect(issues.length).toBe(maxIssues + 1);
    expect(ms).toBeLessThan(1_000);
  });

  it("accept a value that shares a part in two places (no cycle)", () => {
    const amount = { amount: 5, currency: "USD" };
    const shared = { amount };
    expect(
      check(validateTransaction, { amount, adjust_transactions: [shared, shared] }).issues,
    ).toEqual([]);
  });

  it("list at most maxIssues problems of a 1 MB body, and say that more were left out", () => {
    const { issues, ms } = check(
      validateTransaction,
      JSON.parse(`{"adjust_transactions":[${new Array(500_000).fill(1).join(",")}]}`),
    );
    expect(maxIssues).toBe(100);
    expect(issues.length).toBe(maxIssues + 1);
    expect(issues[0]).toEqual({
      path: "body.adjust_transactions[0]",
      message: "must be an object, not number 1",
    });
    expect(issues[maxIssues]).toEqual({
      path: `body.adjust_transactions[${maxIssues}]`,
      message: "must be an object, not number 1 (further problems not listed)",
    });
    expect(ms).toBeLessThan(1_000);
  });

  it("say once that more were left out when a union's closest member listed the most (the fuzz test, seed 20261122 over session 26's fixtures)", () => {
    // the member's own list was capped, its last issue noted; merged into the union's list at
    // the same place, the note was added a second time
    const sources = union(
      [array(string()), object({ id: string() }, ["id"])],
      ["string[]", "Customer"],
    );
    const issues = validate(sources, new Array(300).fill(1), "$.sources");
    expect(issues).toHaveLength(maxIssues + 1);
    expect(issues.filter((issue) => issue.message.includes("further problems"))).toEqual([
      {
        path: `$.sources[${maxIssues}]`,
        message: "must be a string, not number 1 (further problems not listed)",
      },
    ]);
  });

  it("let the router answer 400 to a 1 MB body of 500,000 wrong items (spreading 500,000 issues overflowed its stack)", async () => {
    const calls: Call[] = [];
    const errors: unknown[] = [];
    const router = createCallbackRouter({
      signingSecrets: [secret],
      handlers: recordingHandlers(calls),
      onError: (e) => errors.push(e),
    });
    const body = `{"event":"cart.update","data":{"order_reference":"o","add_items":[${new Array(500_000).fill(1).join(",")}]}}`;
    expect(body.length).toBeLessThan(1024 * 1024);
    const res = await router.fetch(
      new Request("https://merchant.test/cart_update", {
        method: "POST",
        body,
        headers: { "content-type": "application/json", [signatureHeader]: sign(body, secret) },
      }),
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("body.data.add_items[0] must be an object");
    expect(errors).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("do not walk a huge sparse array of anything, and stop early in one of strings", () => {
    const huge: unknown[] = [];
    huge[2 ** 32 - 2] = "end";
    expect(check(array(anything), huge)).toMatchObject({ issues: [] });
    expect(check(array(nullable(anything)), huge).issues).toEqual([]);
    const { issues, ms } = check(array(string()), huge);
    expect(issues.length).toBe(maxIssues + 1);
    expect(ms).toBeLessThan(1_000);
  });

  it("check the holes of a sparse array, which JSON would send as null", () => {
    expect(validate(array(string()), [, "a"], "tags")).toEqual([
      { path: "tags[0]", message: "must be a string, not undefined" },
    ]);
  });

  it("name a wrong value by its kind: never a function's source, a long bigint or a symbol's text", () => {
    const secretFunction = () => "sk_live_123";
    expect(validate(string(), secretFunction, "f")).toEqual([
      { path: "f", message: "must be a string, not a function" },
    ]);
    expect(validate(string(), 10n ** 400n, "f")).toEqual([
      { path: "f", message: "must be a string, not a bigint" },
    ]);
    expect(validate(number(), Symbol("sk_live_123"), "f")).toEqual([
      { path: "f", message: "must be a number, not a symbol" },
    ]);
  });

  it("take only finite numbers for an open numeric enum, as for a number", () => {
    expect(validate(oneOf([1, 2], true), 7, "e")).toEqual([]);
    expect(validate(oneOf([1, 2], true), NaN, "e")).toEqual([
      { path: "e", message: "must be a number, not number NaN" },
    ]);
    expect(validate(oneOf([1, 2], true), Infinity, "e")).toHaveLength(1);
  });

  it("keep counting levels right after a getter throws through them", () => {
    const shape = object({ a: array(object({ b: string() })) });
    const throwing = {
      a: [
        {
          get b(): string {
            throw new Error("getter");
          },
        },
      ],
    };
    expect(() => validate(shape, throwing, "v")).toThrow("getter");
    let value: unknown = {};
    for (let i = 0; i < maxDepth / 2 - 1; i++) value = { adjust_transactions: [value] };
    expect(check(validateTransaction, value).issues).toEqual([]);
  });

  it("read odd keys as own data: `__proto__`, null-prototype objects, keys that are no identifier", () => {
    const m = Object.create(null) as Record<string, unknown>;
    Object.defineProperty(m, "__proto__", { value: 1, enumerable: true });
    m["a.b"] = "x";
    Object.defineProperty(m, "constructor", { value: 2, enumerable: true });
    expect(validate(map(string()), m, "m")).toEqual([
      { path: "m.__proto__", message: "must be a string, not number 1" },
      { path: "m.constructor", message: "must be a string, not number 2" },
    ]);
    expect(validate(object({ "a.b": number() }), m, "o")).toEqual([
      { path: 'o["a.b"]', message: "must be a number, not a string" },
    ]);
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("a.b");
  });
});
