/**
 * How the runtime makes the generated layer's functions and groups (runtime/client/core.ts
 * `endpoint`, `group`; operation.ts `callArgs`): an endpoint function's arguments sorted by
 * its descriptor's `args`, its code paired with the descriptor's `code` names, and a group's
 * methods calling their functions with the instance's core.
 */
import { describe, expect, it } from "vitest";
import { group } from "../generator/runtime/client/core.ts";
import { callArgs, operation } from "../generator/runtime/client/operation.ts";

const descriptor = (extra: object) =>
  JSON.stringify({
    id: "things.update",
    method: "PATCH",
    path: "/things/{thing_id}/parts/{part}",
    credentials: [],
    headers: {},
    documentedResponse: true,
    ...extra,
  });

describe("callArgs: an endpoint function's arguments by its descriptor", () => {
  const options = { timeoutMs: 5 };
  const cases = [
    {
      given: {
        args: ["thing_id", "part", "$body", "$query"],
        call: ["t1", 2, { a: 1 }, { q: "x" }, options],
      },
      want: { params: { thing_id: "t1", part: 2 }, body: { a: 1 }, query: { q: "x" }, options },
    },
    {
      given: { args: ["$query"], call: [undefined, options] },
      want: { params: undefined, body: undefined, query: undefined, options },
    },
    {
      given: { args: undefined, call: [options] },
      want: { params: undefined, body: undefined, query: undefined, options },
    },
    {
      given: { args: ["thing_id", "$body"], call: ["t1", "text body"] },
      want: { params: { thing_id: "t1" }, body: "text body", query: undefined, options: undefined },
    },
  ];
  it.each(cases)("args $given.args", ({ given, want }) => {
    const op = operation(descriptor(given.args ? { args: given.args } : {}));
    expect(callArgs(op, given.call)).toEqual(want);
  });
});

describe("operation: code passed beside the descriptor", () => {
  it("pairs each argument with the name in its place in `code`", () => {
    const validateParams = () => {};
    const place = () => ({});
    const op = operation(descriptor({ code: ["validateParams", "place"] }), validateParams, place);
    expect(op.validateParams).toBe(validateParams);
    expect(op.place).toBe(place);
    expect(op.validateBody).toBeUndefined();
  });
});

describe("group: an endpoint group's class", () => {
  it("gives each named method its function, called with the instance's core and the arguments", () => {
    const calls: unknown[][] = [];
    const list = (...args: unknown[]) => (calls.push(["list", ...args]), "listed");
    const get = (...args: unknown[]) => (calls.push(["get", ...args]), "got");
    const Things = group<new (core: object) => { list(): string; get(id: string): string }>(
      "list,get",
      list,
      get,
    );
    const core = { name: "core" };
    const things = new Things(core as never);
    expect(things.list()).toBe("listed");
    expect(things.get("t1")).toBe("got");
    expect(calls).toEqual([
      ["list", core],
      ["get", core, "t1"],
    ]);
    expect(Object.keys(things)).toEqual(["core"]);
  });
});
