import { expect, it } from "vitest";
import { generateFrom } from "./helpers.ts";

it("the Merchant spec generates", async () => {
  const result = await generateFrom("spec");
  expect(result.model.endpoints.map((e) => e.id)).toContain("transactions.authorize");
});
