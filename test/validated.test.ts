/**
 * Which types get a validator (ir/validated.ts): by default those the package's own code
 * checks (requests, callback bodies, webhook events), with all they refer to; `all` gives
 * one per named type and parameters interface, for tests that check responses.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateFrom, repoRoot } from "./helpers.ts";

const exportedValidators = (text: string) =>
  [...text.matchAll(/^export function validate(\w+)\(/gm)].map((m) => m[1]);

describe("the validators a package keeps", () => {
  const cases: { given: string; keeps: string[]; drops: string[] }[] = [
    {
      given: "spec",
      // A request body, a type it refers to, a path parameter's type, a callback's body, and
      // success bodies (what `validateResponses` checks: issue 32)
      keeps: [
        ...["AuthorizeRequest", "Money", "TransactionReference", "CartUpdateRequest"],
        ...["Transaction", "ListTransactionsResponse", "RandomPhoneResponse"],
      ],
      // Only error bodies and the answers of the merchant's side use these.
      drops: ["V1ErrorBody", "V3ErrorBody", "CartUpdateSuccess", "ProductInfoFailure"],
    },
    {
      given: "test/fixtures/features/typed-webhooks",
      // webhook event payloads and what they hold
      keeps: ["IssuesEvent", "PingEvent", "Issue", "Label", "User", "HooksCreateParams"],
      drops: [],
    },
    {
      given: "test/fixtures/features/stand-in",
      keeps: ["CreateHook", "Ticket", "ItemsListParams", "Item", "ItemList"],
      drops: ["ListError", "TagError"],
    },
    {
      given: "test/fixtures/features/recursion",
      keeps: [],
      drops: ["Tree", "Person", "LinkedNode"],
    },
  ];
  it.each(cases)("$given", async ({ given, keeps, drops }) => {
    const { model, files } = await generateFrom(given);
    expect(model.validated).toEqual(expect.arrayContaining(keeps));
    for (const name of drops) expect(model.validated).not.toContain(name);
    const validators = files.find((f) => f.path === "src/validators.ts")!;
    expect(exportedValidators(validators.contents)).toEqual(model.validated);
  });

  it("with validators: all, one per named type and parameters interface, in the model's order", async () => {
    const { model } = await generateFrom("spec", undefined, { validators: "all" });
    expect(model.validated).toEqual([
      ...model.types.map((t) => t.name),
      ...model.paramsTypes.map((p) => p.name),
    ]);
  });

  it("an output made with validators: all is never taken for the spec's own (its fingerprint differs)", async () => {
    const inputsOf = async (options: { validators?: "all" }) => {
      const { files } = await generateFrom("spec", undefined, options);
      const manifest = files.find((f) => f.path === ".apigen-manifest.json")!;
      return JSON.parse(manifest.contents).inputs as string;
    };
    const used = await inputsOf({});
    expect(used).toMatch(/^[0-9a-f]{32}$/);
    expect(await inputsOf({ validators: "all" })).not.toBe(used);
  });

  it("the committed Merchant package has exactly the validators its code uses", async () => {
    const { model } = await generateFrom("spec");
    const text = readFileSync(join(repoRoot, "generated/src/validators.ts"), "utf8");
    expect(exportedValidators(text)).toEqual(model.validated);
    expect(model.validated.length).toBeLessThan(model.types.length + model.paramsTypes.length);
  });
});
