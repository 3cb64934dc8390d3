/**
 * The callbacks emitter and the router runtime as code: the IR reads failure shapes off the
 * model's failure types (not written per event), `src/index.ts` leaves the router out, the
 * runtime core uses Web APIs only, and the small runtime pieces (strict base64, constant-time
 * comparison, failure bodies, route matching) behave.
 */
import { createHmac } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { PipelineResult } from "../generator/pipeline.ts";
import { decodeBase64, encodeBase64 } from "../generator/runtime/callbacks/base64.ts";
import { failureBody, genericFailureShape } from "../generator/runtime/callbacks/failure.ts";
import {
  matchRoute,
  stripBasePath,
  type RouteSpec,
} from "../generator/runtime/callbacks/routes.ts";
import { timingSafeEqual } from "../generator/runtime/callbacks/signature.ts";
import { generateFrom, writeGenerated, repoRoot, tempDir } from "./helpers.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6, typescript7 } from "./support/typescript.ts";

let merchant: PipelineResult;
let operations: PipelineResult;
beforeAll(async () => {
  merchant = await generateFrom("spec");
  operations = await generateFrom("test/fixtures/features/operations");
});

const callback = (result: PipelineResult, event: string) => {
  const found = result.model.callbacks.find((c) => c.event === event);
  if (!found) throw new Error(`no callback ${event}`);
  return found;
};

describe("the IR reads each callback's routing off the model's types", () => {
  it("Merchant: error object vs errors list, message vs data[{reason}], event where the type has it", () => {
    const shape = (event: string) => callback(merchant, event).routing.failureShape;
    expect(shape("product.info")).toEqual({
      fixed: { status: "failure" },
      event: "event",
      container: { field: "error", list: false },
      code: "code",
      text: { field: "message" },
    });
    expect(shape("order.shipping")).toEqual({
      fixed: { status: "failure" },
      event: "event",
      container: { field: "error", list: false },
      code: "code",
      text: { field: "data", item: "reason" },
    });
    expect(shape("cart.update")).toEqual({
      fixed: { status: "failure" },
      event: "event",
      container: { field: "errors", list: true },
      code: "code",
      text: { field: "data", item: "reason" },
    });
    expect(shape("account.login")).toEqual({
      fixed: { status: "failure" },
      container: { field: "errors", list: true },
      code: "code",
      text: { field: "data", item: "reason" },
    });
  });

  it("Merchant: the router adds event to every answer but account.login's; signature header and code 27 from the model", () => {
    expect(merchant.model.callbacks.map((c) => c.routing.responseEvent ?? "-")).toEqual([
      "event",
      "event",
      "event",
      "-",
    ]);
    expect(merchant.model.callbacks.map((c) => c.routing.signatureHeader)).toEqual(
      Array(4).fill("X-Service-Hmac-Sha256"),
    );
    expect(merchant.model.webhooks?.signatureHeader).toBe("X-Service-Hmac-Sha256");
    expect(merchant.model.callbackSignatureCode).toBe(27);
  });

  it("operations fixture: a top-level message without code; no failure type gives none (the generic shape)", () => {
    expect(callback(operations, "order.shipped").routing.failureShape).toEqual({
      fixed: { status: "failure" },
      text: { field: "message" },
    });
    expect(callback(operations, "account.login").routing.failureShape).toBeUndefined();
    expect(callback(operations, "order.shipped").routing.signatureHeader).toBe("X-Signature");
    expect(operations.model.callbackSignatureCode).toBe(422); // its catalogue names no signature code
  });

  it("the emitted route table carries the shapes as data, and the fixture's router uses the generic shape where none is given", () => {
    const text = operations.files
      .find((f) => f.path === "src/callbacks.ts")!
      .contents.replace(/\s+/g, " ")
      .replace(/, \)/g, ")")
      .replace(/\( /g, "(");
    expect(text).toMatch(/failure: genericFailureShape,/);
    expect(text).toContain('path: "/login", params: [ { name: "code", placement: "trailing" },');
    expect(text).toContain(
      '"account.login": (params: AccountLoginParams, ctx: CallbackContext) => AccountLoginResult | Promise<AccountLoginResult>;',
    );
    expect(text).toContain("export type AccountLoginResult = Ack;");
    expect(text).toContain("export type OrderShippedResult = Ack | AckFailure;");
  });
});

describe("package surface", () => {
  it("src/callbacks.ts exists; src/index.ts does not re-export it (browser bundles)", () => {
    const paths = merchant.files.map((f) => f.path);
    expect(paths).toContain("src/callbacks.ts");
    const index = merchant.files.find((f) => f.path === "src/index.ts")!.contents;
    expect(index).not.toMatch(/callbacks/);
    expect(index).not.toMatch(/runtime\/callbacks/);
  });

  it("the router runtime imports nothing from node: and uses no Node-only global (but a guarded globalThis.process)", () => {
    const folder = join(repoRoot, "generator/runtime/callbacks");
    const files = readdirSync(folder).filter((f) => f.endsWith(".ts"));
    expect(files).toEqual(
      expect.arrayContaining([
        "core.ts",
        "router.ts",
        "signature.ts",
        "node-adapter.ts",
        "fetch-adapter.ts",
      ]),
    );
    for (const name of files) {
      const code = readFileSync(join(folder, name), "utf8").replace(
        /\/\*[\s\S]*?\*\/|\/\/.*$/gm,
        "",
      );
      expect(code, name).not.toMatch(
        /from\s+["'](node:|fs|http|crypto|buffer|stream)["']|require\(/,
      );
      // Node's HMAC is taken at run time from `globalThis.process`, if there is one: no bare `process`.
      const guarded = code.replace(/\(globalThis as \{ process\?: .*\}\)\.process\b/g, "");
      expect(guarded, name).not.toMatch(/\b(Buffer|process|setImmediate|__dirname|global)\b/);
      for (const spec of code.matchAll(/from\s+["']([^"']+)["']/g))
        expect(spec[1], name).toMatch(/^\.\.?\//);
    }
  });

  it("every runtime file of the router is copied into the package", () => {
    const copied = merchant.files
      .filter((f) => f.path.startsWith("src/runtime/callbacks/"))
      .map((f) => f.path.slice("src/runtime/callbacks/".length));
    expect(copied.sort()).toEqual(
      readdirSync(join(repoRoot, "generator/runtime/callbacks")).sort(),
    );
  });
});

describe("router runtime pieces", () => {
  it("strict base64: round trip, and refuses what forgiving decoders accept", () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
      expect(encodeBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
      expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
    }
    for (const bad of ["QQ", "QQ=", "QR==", "Q===", "====", "QQ==QQ==", "QQ ==", "-_-_", "QUJD\n"])
      expect(decodeBase64(bad), bad).toBeUndefined();
    expect(decodeBase64("QUJD")).toEqual(new TextEncoder().encode("ABC"));
  });

  it("timingSafeEqual compares whole contents and lengths", () => {
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3, 0]))).toBe(false);
    expect(timingSafeEqual(new Uint8Array([]), new Uint8Array([]))).toBe(true);
  });

  it("failure bodies follow the shape, and cap the number of reasons", () => {
    expect(failureBody(genericFailureShape, "x", 404, ["a", "b"])).toEqual({
      error: { code: 404, message: "a; b" },
    });
    const list = failureBody(
      {
        fixed: { status: "failure" },
        event: "event",
        container: { field: "errors", list: true },
        code: "code",
        text: { field: "data", item: "reason" },
      },
      "cart.update",
      400,
      Array.from({ length: 30 }, (_, i) => `r${i}`),
    );
    const data = (list as { errors: { data: unknown[] }[] }).errors[0]!.data;
    expect(data).toHaveLength(21);
    expect(data[20]).toEqual({ reason: "... and 10 more problems" });
    expect(Object.keys(list)).toEqual(["event", "status", "errors"]);
  });

  it("route matching: {name} segments, trailing segments or query, 405 and 404", () => {
    const routes: RouteSpec[] = [
      {
        event: "a",
        method: "GET",
        path: "/items/{id}",
        params: [
          { name: "id", placement: "path", as: "number" },
          { name: "q", placement: "query" },
        ],
        failure: genericFailureShape,
      },
      {
        event: "b",
        method: "GET",
        path: "/t",
        params: [
          { name: "x", placement: "trailing" },
          { name: "y", placement: "trailing", as: "boolean" },
        ],
        failure: genericFailureShape,
      },
    ];
    const q = (s: string) => new URLSearchParams(s);
    expect(matchRoute(routes, "GET", "/items/42", q("q=z"))).toMatchObject({
      kind: "route",
      params: { id: 42, q: "z" },
    });
    expect(matchRoute(routes, "GET", "/items/4x2", q(""))).toMatchObject({
      kind: "route",
      params: { id: "4x2" },
    });
    expect(matchRoute(routes, "GET", "/t/1/true", q("x=9"))).toMatchObject({
      kind: "route",
      params: { x: "1", y: true },
    });
    expect(matchRoute(routes, "GET", "/t", q("x=9&y=false"))).toMatchObject({
      kind: "route",
      params: { x: "9", y: false },
    });
    expect(matchRoute(routes, "POST", "/t/1/true", q(""))).toMatchObject({
      kind: "method",
      allowed: ["GET"],
    });
    expect(matchRoute(routes, "GET", "/t/1/2/3", q(""))).toEqual({ kind: "none" });
    expect(stripBasePath("/api/t", "/api/")).toBe("/t");
    expect(stripBasePath("/apix/t", "/api")).toBeUndefined();
  });
});

describe("a spec with inline callback types, path and query parameters (test/fixtures/callbacks-inline)", () => {
  let out: string;
  let result: PipelineResult;
  beforeAll(async () => {
    out = tempDir("apigen-callbacks-inline-");
    result = await writeGenerated("test/fixtures/callbacks-inline", out);
  });

  it("src/callbacks.ts matches its snapshot", async () => {
    const file = result.files.find((f) => f.path === "src/callbacks.ts")!;
    await expect(file.contents).toMatchFileSnapshot(
      "./__snapshots__/callbacks-inline/callbacks.ts",
    );
  });

  it.each([
    ["TypeScript 6", typescript6],
    ["TypeScript 7", typescript7],
  ])("its package type-checks strict with %s", (_name, tsc) => {
    const run = runTypeScript(tsc, [
      "-p",
      join(tsc === typescript6 ? withRuntimeDeclarations(out) : out, "tsconfig.json"),
    ]);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("serves the route: path and integer query parameters, an inline body validator, a {code, detail} failure list, 204 for void", async () => {
    const { createCallbackRouter } = await import(
      pathToFileURL(join(out, "src/callbacks.ts")).href
    );
    const seen: unknown[] = [];
    const router = createCallbackRouter({
      signingSecrets: ["k"],
      handlers: {
        "stock.check": (body: unknown, ctx: { params: unknown }) => (
          seen.push(body, ctx.params),
          { status: "ok", count: 3 }
        ),
        ping: () => undefined,
      },
    });
    const post = async (path: string, body: string, signed = body) => {
      const res = await router.fetch(
        new Request(`http://127.0.0.1${path}`, {
          method: "POST",
          body,
          headers: { "X-Sig": createHmac("sha256", "k").update(signed).digest("base64") },
        }),
      );
      return { status: res.status, json: await res.json() };
    };
    const body = JSON.stringify({ event: "stock.check", quantity: 2 });
    expect(await post("/stock/ABC-1?warehouse=7", body)).toEqual({
      status: 200,
      json: { status: "ok", count: 3 },
    });
    expect(seen).toEqual([
      { event: "stock.check", quantity: 2 },
      { sku: "ABC-1", warehouse: 7 },
    ]);
    expect(
      await post("/stock/AB?warehouse=0", JSON.stringify({ event: "stock.check", quantity: 1.5 })),
    ).toEqual({
      status: 400,
      json: {
        status: "error",
        problems: [
          {
            code: 400,
            detail:
              "body.quantity must be an integer; params.sku must be at least 3 characters long; params.warehouse must be at least 1",
          },
        ],
      },
    });
    expect((await post("/stock/ABC?warehouse=x", body)).json.problems[0].detail).toBe(
      "params.warehouse must be a number, not a string",
    );
    expect((await post("/stock/ABC?warehouse=1", body.replace("2", "3"), body)).json).toEqual({
      status: "error",
      problems: [{ code: 422, detail: "X-Sig does not match the body" }],
    });
    const ping = await router.fetch(new Request("http://127.0.0.1/ping"));
    expect(ping.status).toBe(204);
    expect(await ping.text()).toBe("");
  });
});
