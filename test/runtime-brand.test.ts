/**
 * `instanceof` across two copies of the runtime (runtime/client/brand.ts), as Node holds them
 * when one process loads the package's CommonJS build and its ES module build: here two
 * instances of the same modules (a query string makes a second module instance). An error or
 * a NotModified of the one copy is `instanceof` the other's class of the same brand, and of
 * no other; a class without a brand of its own is matched only as JavaScript does.
 */
import { describe, expect, it } from "vitest";
import * as conditionalA from "../generator/runtime/client/conditional.ts";
import * as errorsA from "../generator/runtime/client/errors.ts";

// A second instance of each module: the query string makes it another module to Vite.
const errorsB = (await import(
  // @ts-expect-error TypeScript does not resolve a path with a query string
  "../generator/runtime/client/errors.ts?copy=b"
)) as typeof errorsA;
const conditionalB = (await import(
  // @ts-expect-error TypeScript does not resolve a path with a query string
  "../generator/runtime/client/conditional.ts?copy=b"
)) as typeof conditionalA;

describe("two copies of the runtime", () => {
  it("are two copies: their classes differ", () => {
    expect(errorsB.TimeoutError).not.toBe(errorsA.TimeoutError);
    expect(conditionalB.NotModified).not.toBe(conditionalA.NotModified);
  });

  it("take an error of the other copy as an instance of the same class and of its bases", () => {
    const timeout = new errorsA.TimeoutError("transactions.get", 5000);
    expect(timeout instanceof errorsB.TimeoutError).toBe(true);
    expect(timeout instanceof errorsB.ClientError).toBe(true);
    const api = new errorsB.ApiError({
      status: 404,
      endpointId: "transactions.get",
      message: "not found",
      errors: [],
      body: {},
      headers: new Headers(),
    });
    expect(api instanceof errorsA.ApiError).toBe(true);
    expect(api instanceof errorsA.ClientError).toBe(true);
    expect(new errorsB.ClientError("x", "e") instanceof errorsA.ClientError).toBe(true);
  });

  it("take it as an instance of no other class", () => {
    const timeout = new errorsA.TimeoutError("transactions.get", 5000);
    for (const other of [errorsB.ConnectionError, errorsB.ApiError, errorsA.ConnectionError])
      expect(timeout instanceof other, other.name).toBe(false);
    // a base is not an instance of its subclass
    expect(new errorsA.ClientError("x", "e") instanceof errorsB.TimeoutError).toBe(false);
  });

  it("take a NotModified of the other copy as one", () => {
    const answer = new conditionalA.NotModified(new Headers({ etag: '"v1"' }));
    expect(answer instanceof conditionalB.NotModified).toBe(true);
    expect({ status: 304 } instanceof conditionalB.NotModified).toBe(false);
  });

  it("match a user's subclass without a brand only as JavaScript does", () => {
    class MyError extends errorsA.ClientError {}
    const mine = new MyError("x", "e");
    // its branded base holds across copies
    expect(mine instanceof errorsB.ClientError).toBe(true);
    expect(mine instanceof MyError).toBe(true);
    // another class's instance is not one, though its bases' brands are the same
    expect(new errorsB.ClientError("x", "e") instanceof MyError).toBe(false);
    expect(new errorsA.TimeoutError("e", 1) instanceof MyError).toBe(false);
  });

  it("answer false for values that are not instances, and run no getter of theirs", () => {
    let ran = false;
    const prototype = Object.defineProperty({}, "constructor", {
      get: () => {
        ran = true;
        return errorsA.TimeoutError;
      },
    });
    const values: unknown[] = [
      null,
      undefined,
      "TimeoutError",
      5000,
      { "~brand": "apigen:TimeoutError" },
      { name: "TimeoutError", constructor: errorsA.TimeoutError },
      Object.create(prototype),
      Object.create(null),
      new Error("x"),
      () => {},
    ];
    for (const value of values) expect(value instanceof errorsB.TimeoutError).toBe(false);
    expect(ran).toBe(false);
  });
});
