/**
 * Response validation (issue 32, `validateResponses`) and the Standard Schema validators
 * (issue 33, item 3), on the package of test/fixtures/response-validation: its client against
 * a node:http server on 127.0.0.1 answering bodies that break a tagged union or miss a
 * required field, and streams (JSON lines, named events) with an item that breaks its type;
 * off passes them through, warn logs once with the path, throw raises the typed error. The
 * `./validators` entry's Standard Schemas: values and paths, and the types with a real
 * consumer (`@standard-schema/spec`'s types and a function generic over them, as form and
 * tRPC-style libraries are), with TypeScript 6.
 */
import { rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

let server: Server;
let baseUrl: string;
let answer: (res: ServerResponse) => void = (res) => void res.end();
let out: string;
// The generated modules: their types are checked by the type-check below, not here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pkg: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let validators: any;

beforeAll(async () => {
  out = tempDir("apigen-response-validation-");
  await writeGenerated("test/fixtures/response-validation", out);
  pkg = await import(pathToFileURL(join(out, "src/index.ts")).href);
  validators = await import(pathToFileURL(join(out, "src/validators.ts")).href);
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(out, { recursive: true, force: true });
});

const json = (body: unknown) => (res: ServerResponse) =>
  void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));

/** A logger that keeps its lines. */
function logger(withWarn = true) {
  const lines = { debug: [] as string[], warn: [] as string[] };
  const log = {
    debug: (line: string) => void lines.debug.push(line),
    ...(withWarn ? { warn: (line: string) => void lines.warn.push(line) } : {}),
  };
  return { log, lines };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const client = (options: Record<string, unknown> = {}): any =>
  new pkg.PayClient({
    baseUrl,
    maxRetries: 0,
    responseValidators: validators.responseValidators,
    ...options,
  });

// A value that must never reach a message: the body may hold secrets.
const secret = "sk_live_do_not_print_0123";
const cardWithoutCard = { id: secret, type: "card" };
const unknownTag = { id: secret, type: "crypto" };
const good = { id: "pm_1", type: "card", card: { brand: "visa", last4: "4242" } };

describe("validateResponses on a JSON body", () => {
  it("off (the default) passes a broken body through, even with the validators given", async () => {
    answer = json(cardWithoutCard);
    expect(await client().paymentMethods.get("pm_1")).toEqual(cardWithoutCard);
    expect(await client({ validateResponses: "off" }).paymentMethods.get("pm_1")).toEqual(
      cardWithoutCard,
    );
  });

  it("throw raises ResponseValidationError naming the endpoint and the path, never the body", async () => {
    answer = json(cardWithoutCard);
    const error = await client({ validateResponses: "throw" })
      .paymentMethods.get("pm_1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(pkg.ResponseValidationError);
    expect(error).toBeInstanceOf(pkg.ClientError);
    expect(error).toMatchObject({
      name: "ResponseValidationError",
      endpointId: "paymentMethods.get",
      path: "$.card",
      problem: "is required",
      problems: 1,
    });
    expect(error.message).toBe(
      "paymentMethods.get: the response body does not match the spec: $.card is required",
    );
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(secret);
  });

  it("throw names a tag the closed union does not list at the tag's path", async () => {
    answer = json(unknownTag);
    const error = await client({ validateResponses: "throw" })
      .paymentMethods.get("pm_1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(pkg.ResponseValidationError);
    expect(error.path).toBe("$.type");
    expect(error.message).not.toContain(secret);
  });

  it("throw checks withResponse() too, and lets a matching body through", async () => {
    answer = json(cardWithoutCard);
    const c = client({ validateResponses: "throw" });
    await expect(c.paymentMethods.get("pm_1").withResponse()).rejects.toBeInstanceOf(
      pkg.ResponseValidationError,
    );
    answer = json(good);
    expect(await c.paymentMethods.get("pm_1")).toEqual(good);
    expect((await c.paymentMethods.get("pm_1").withResponse()).data).toEqual(good);
  });

  it("asResponse() hands the response over unchecked", async () => {
    answer = json(cardWithoutCard);
    const response = await client({ validateResponses: "throw" })
      .paymentMethods.get("pm_1")
      .asResponse();
    expect(await response.json()).toEqual(cardWithoutCard);
  });

  it("warn resolves to the body and logs one line with the path to the logger's warn", async () => {
    answer = json({ id: "pm_1", type: "card", card: { brand: 7, last4: "12" } });
    const { log, lines } = logger();
    const body = await client({ validateResponses: "warn", logger: log }).paymentMethods.get(
      "pm_1",
    );
    expect(body.card.last4).toBe("12");
    expect(lines.warn).toEqual([
      "paymentMethods.get: the response body does not match the spec: $.card.brand must be a string, not number 7 (and 1 more problem)",
    ]);
  });

  it("warn goes to debug when the logger has no warn", async () => {
    answer = json(cardWithoutCard);
    const { log, lines } = logger(false);
    await client({ validateResponses: "warn", logger: log }).paymentMethods.get("pm_1");
    expect(lines.debug.filter((l) => l.includes("does not match"))).toEqual([
      "paymentMethods.get: the response body does not match the spec: $.card is required",
    ]);
  });

  it("warn or throw without the validators is refused when the client is made", () => {
    expect(() => new pkg.PayClient({ baseUrl, validateResponses: "throw" })).toThrow(
      pkg.ClientOptionsError,
    );
    expect(() => new pkg.PayClient({ baseUrl, validateResponses: "warn" })).toThrow(
      /validateResponses needs responseValidators/,
    );
  });

  it("a text body has nothing to check", async () => {
    answer = (res) => void res.writeHead(200, { "content-type": "text/plain" }).end("hello");
    expect(await client({ validateResponses: "throw" }).reports.download()).toBe("hello");
  });
});

describe("validateResponses on stream items", () => {
  const lines =
    (...items: unknown[]) =>
    (res: ServerResponse) =>
      void res
        .writeHead(200, { "content-type": "application/x-ndjson" })
        .end(items.map((i) => `${JSON.stringify(i)}\n`).join(""));
  const broken = [{ seq: 0, message: "a" }, { seq: "1", message: secret }, { seq: 2 }];

  async function read(stream: AsyncIterable<unknown>) {
    const items: unknown[] = [];
    try {
      for await (const item of stream) items.push(item);
    } catch (error) {
      return { items, error: error as Error & Record<string, unknown> };
    }
    return { items, error: undefined };
  }

  it("off yields every item as it came", async () => {
    answer = lines(...broken);
    const { items, error } = await read(await client().logs.tail());
    expect(error).toBeUndefined();
    expect(items).toEqual(broken);
  });

  it("throw ends the for await at the first broken item, after the items before it", async () => {
    answer = lines(...broken);
    const { items, error } = await read(await client({ validateResponses: "throw" }).logs.tail());
    expect(items).toEqual([broken[0]]);
    expect(error).toBeInstanceOf(pkg.ResponseValidationError);
    expect(error).toMatchObject({ endpointId: "logs.tail", path: "$.seq", streamItem: 1 });
    expect(error!.message).toBe(
      "logs.tail: the stream item 1 does not match the spec: $.seq must be a number, not a string",
    );
  });

  it("warn yields every item and logs the first broken one once", async () => {
    answer = lines(...broken);
    const { log, lines: logged } = logger();
    const { items, error } = await read(
      await client({ validateResponses: "warn", logger: log }).logs.tail(),
    );
    expect(error).toBeUndefined();
    expect(items).toEqual(broken);
    expect(logged.warn).toEqual([
      "logs.tail: the stream item 1 does not match the spec: $.seq must be a number, not a string",
    ]);
  });

  it("throw checks each named event's data against its own type", async () => {
    answer = (res) =>
      void res
        .writeHead(200, { "content-type": "text/event-stream" })
        .end('event: progress\ndata: {"percent": 50}\n\nevent: done\ndata: {"ok": "yes"}\n\n');
    const { items, error } = await read(await client({ validateResponses: "throw" }).jobs.watch());
    expect(items).toEqual([{ event: "progress", data: { percent: 50 } }]);
    expect(error).toMatchObject({ path: "$.ok", streamItem: 1 });
  });
});

describe("Standard Schema validators (the ./validators entry)", () => {
  it("are Standard Schema v1 of vendor apigen", () => {
    const props = validators.signupSchema["~standard"];
    expect(props.version).toBe(1);
    expect(props.vendor).toBe("apigen");
    expect(typeof props.validate).toBe("function");
  });

  it("give a valid value back as it is", () => {
    const value = { email: "a@b.c", age: 30, tags: ["x"], "a b": "y" };
    const result = validators.signupSchema["~standard"].validate(value);
    expect(result).toEqual({ value });
    expect(result.value).toBe(value);
  });

  it("give every problem with its path as keys: fields, array indexes, any key", () => {
    const result = validators.signupSchema["~standard"].validate({
      email: "nobody",
      age: 12,
      tags: ["ok", 5],
      "a b": false,
    });
    expect(result.issues).toEqual([
      { message: "must match ^[^@]+@[^@]+$", path: ["email"] },
      { message: "must be at least 18", path: ["age"] },
      { message: "must be a string, not number 5", path: ["tags", 1] },
      { message: "must be a string, not boolean false", path: ["a b"] },
    ]);
  });

  it("give an issue at the root with an empty path, and check tagged unions", () => {
    expect(validators.signupSchema["~standard"].validate(null).issues).toEqual([
      { message: "must be an object, not null", path: [] },
    ]);
    const pm = validators.paymentMethodSchema["~standard"];
    expect(pm.validate(good)).toEqual({ value: good });
    expect(pm.validate(cardWithoutCard).issues).toEqual([
      { message: "is required", path: ["card"] },
    ]);
  });

  it("type-check in a consumer generic over @standard-schema/spec, the output type inferred", () => {
    const consumer = `import type { StandardSchemaV1 } from "@standard-schema/spec";
import { paymentMethodSchema, signupSchema } from "./validators.js";
import type { PaymentMethod, Signup } from "./types.js";

/** What a form library or a tRPC-style router does with any Standard Schema. */
function parse<S extends StandardSchemaV1>(schema: S, value: unknown): StandardSchemaV1.InferOutput<S> {
  const result = schema["~standard"].validate(value);
  if (result instanceof Promise) throw new Error("async");
  if (result.issues) throw new Error(result.issues.map((i) => i.message).join(", "));
  return result.value;
}

export const signup: Signup = parse(signupSchema, {});
const method = parse(paymentMethodSchema, {});
export const last4: string | undefined = method.type === "card" ? method.card.last4 : undefined;
type Output = StandardSchemaV1.InferOutput<typeof paymentMethodSchema>;
export const same: [Output] extends [PaymentMethod] ? ([PaymentMethod] extends [Output] ? true : false) : false = true;
// @ts-expect-error: the output is PaymentMethod, not any
export const wrong: number = parse(paymentMethodSchema, {});
`;
    writeFileSync(join(out, "src/standard-schema-consumer.ts"), consumer);
    // The scratch package lives outside the repository: its compiler finds the spec's types here.
    const spec = join(repoRoot, "node_modules/@standard-schema/spec/dist/index.d.ts");
    writeFileSync(
      join(out, "tsconfig.consumer.json"),
      JSON.stringify({
        extends: "./tsconfig.json",
        compilerOptions: { paths: { "@standard-schema/spec": [spec] } },
      }),
    );
    const project = join(withRuntimeDeclarations(out), "tsconfig.consumer.json");
    const run = runTypeScript(typescript6, ["-p", project]);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
