/**
 * The order of an endpoint's path parameters (ir/build-operations.ts, inPathOrder): the
 * path's own, in the slots path parameters had, whatever order the source declares them in.
 */
import { describe, expect, it } from "vitest";
import { inPathOrder } from "../generator/ir/build-operations.ts";
import type { Param } from "../generator/ir/model.ts";

const param = (spec: string) => {
  const [placement, name] = spec.split(":") as [Param["placement"], string];
  return { name, placement } as Param;
};
const specs = (params: Param[]) => params.map((p) => `${p.placement}:${p.name}`);

describe("inPathOrder", () => {
  it.each([
    [
      ["path:b", "path:a"],
      ["a", "b"],
      ["path:a", "path:b"],
    ],
    [
      ["path:b", "query:q", "path:a"],
      ["a", "b"],
      ["path:a", "query:q", "path:b"],
    ],
    [
      ["query:q", "path:a", "path:b"],
      ["a", "b"],
      ["query:q", "path:a", "path:b"],
    ],
    [
      ["path:c", "path:a", "path:b"],
      ["a", "b", "c"],
      ["path:a", "path:b", "path:c"],
    ],
    // one the path does not name (reported as path-param-unused) stays where it is
    [
      ["path:x", "path:b", "path:a"],
      ["a", "b"],
      ["path:x", "path:a", "path:b"],
    ],
    [
      ["trailing:t", "path:b", "path:a"],
      ["a", "b"],
      ["trailing:t", "path:a", "path:b"],
    ],
  ])("%o in %o -> %o", (given, names, want) => {
    expect(specs(inPathOrder(given.map(param), names))).toEqual(want);
  });
});
