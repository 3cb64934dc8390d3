/**
 * examples/merchant-server, started as `npm start` starts it (tsx src/main.ts, configuration
 * from the environment) as a child process on 127.0.0.1, next to the generated stand-in of
 * the service (`merchant-commerce-api/testing`, on 127.0.0.1) that answers its client.
 * Callbacks of all four events are sent by the trigger (signed as the service signs them,
 * answers checked against the spec's types) and get the filled-in handlers' answers; its
 * `GET /orders/:reference` route makes the generated client call the stand-in. Its
 * committed handlers type-check.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createStandIn,
  listen,
  type RunningStandIn,
  type StandIn,
} from "../generated/src/testing.ts";
import { trigger, type TriggerOptions } from "../generator/commands/trigger-command.ts";
import { send, secret, type Running } from "./callbacks-helpers.ts";
import { repoRoot } from "./helpers.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

const example = join(repoRoot, "examples/merchant-server");
const tsxCli = join(repoRoot, "node_modules/tsx/dist/cli.mjs");

const apiKey = "example-api-key";
let standIn: StandIn;
let service: RunningStandIn;
/** The stand-in's log: one line per request of the example's client. */
const serviceLog: string[] = [];
let child: ChildProcess;
let merchant: Running;
let output = "";

/** Starts the example and resolves with its address once it prints it (10 s at most). */
function startExample(env: Record<string, string>): Promise<Running> {
  child = spawn(process.execPath, [tsxCli, "src/main.ts"], {
    cwd: example,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the example did not start within 10 s:\n${output}`)),
      10_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ origin: match[1]!, port: Number(match[2]), close: async () => undefined });
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the example exited with ${code}:\n${output}`));
    });
  });
}

beforeAll(async () => {
  standIn = createStandIn({
    keys: { apiKey: { valid: [apiKey] } },
    log: (line) => serviceLog.push(line),
    // The example's client sends no Prefer header: the service's 404 is asked for by path.
    prefer: (request) => (request.url.endsWith("/NONE-NONE-NONE") ? "code=404" : undefined),
  });
  service = await listen(standIn);
  merchant = await startExample({
    PORT: "0",
    HOST: "127.0.0.1",
    SERVICE_BASE_URL: service.url,
    API_KEY: apiKey,
    SIGNING_SECRET: secret,
  });
});

/** Sends one callback to the example with the trigger (from spec/), as the service would. */
async function deliver(event: string, options: Partial<TriggerOptions> = {}) {
  const lines: string[] = [];
  const result = await trigger(
    {
      event,
      specDir: join(repoRoot, "spec"),
      url: `${merchant.origin}/callbacks`,
      secret,
      ...options,
    },
    (line) => lines.push(line),
  );
  return { ...result, status: result.answer?.status, verdict: lines.at(-1) };
}

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
  await service?.close();
});

describe("examples/merchant-server", () => {
  it("is started by `npm start` with tsx src/main.ts, after building the package", () => {
    const pkg = JSON.parse(readFileSync(join(example, "package.json"), "utf8")) as {
      private: boolean;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe("tsx src/main.ts");
    expect(pkg.scripts.prestart).toBe("npm run build -w merchant-commerce-api");
    expect(pkg.private).toBe(true);
    expect(Object.keys(pkg.dependencies)).toEqual(["merchant-commerce-api"]);
  });

  it("answers product.info, a GET with a signed JSON body, from its catalogue", async () => {
    const body = JSON.stringify({ event: "product.info", data: { sku: "MUG-BLUE" } });
    const res = await deliver("product.info", { body, expect: "success" });
    expect(res.status).toBe(200);
    expect(res.verdict).toBe("verdict: ok, a success answer of the spec's success type");
    expect(res.json).toEqual({
      event: "product.info",
      status: "success",
      data: {
        Current: {
          ServiceID: "prod-mug",
          Brand: "Acme",
          Name: "Blue mug",
          Availability: "in_stock",
          AvailabilityCount: "42",
          Taxable: true,
          Prices: [{ UnitPriceInCents: 1250, Currency: "USD" }],
        },
        Variants: [],
        Parent: { Name: "Kitchen", Brand: "Acme" },
      },
    });
    const missing = await deliver("product.info", {
      body: JSON.stringify({ event: "product.info", data: { productID: "nope" } }),
      expect: "failure",
    });
    expect(missing.status).toBe(404);
    expect(missing.code).toBe(0);
    expect(missing.json).toEqual({
      event: "product.info",
      status: "failure",
      error: { code: 404, message: "no product nope" },
    });
  });

  it("answers order.shipping with its rates", async () => {
    const body = JSON.stringify({
      event: "order.shipping",
      data: {
        shipping_address: { country_code: "US", postal_code: "94103" },
        cart: { total_amount: 2500, items: [{ sku: "MUG-BLUE", quantity: 2 }] },
      },
    });
    const res = await deliver("order.shipping", { body, expect: "success" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      event: "order.shipping",
      status: "success",
      data: {
        shipping_options: [
          {
            service: "Ground",
            reference: "ship-ground",
            cost: 500,
            estimated_delivery_date: "5 business days",
          },
          {
            service: "Express",
            reference: "ship-express",
            cost: 1500,
            estimated_delivery_date: "1 business day",
          },
        ],
        is_store_location: false,
      },
    });
    // The body the trigger builds from the spec's request type gets a success answer too.
    const built = await deliver("order.shipping", { expect: "success" });
    expect(built.code).toBe(0);
  });

  it("answers cart.update: prices known items, refuses unknown ones with 6001", async () => {
    const ok = await deliver("cart.update", {
      body: JSON.stringify({
        event: "cart.update",
        data: { order_reference: "ord-1", add_items: [{ product_id: "prod-tea", quantity: 2 }] },
      }),
      expect: "success",
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({
      event: "cart.update",
      status: "success",
      data: {
        order_create: {
          cart: {
            items: [
              {
                reference: "prod-tea",
                sku: "TEA-GREEN",
                name: "Green tea",
                quantity: 2,
                total_amount: 1798,
              },
            ],
            total_amount: 1798,
            currency: "USD",
          },
        },
      },
    });
    const unknown = await deliver("cart.update", {
      body: JSON.stringify({
        event: "cart.update",
        data: { add_items: [{ product_id: "prod-x" }] },
      }),
      expect: "failure",
    });
    expect(unknown.code).toBe(0);
    expect(unknown.json).toEqual({
      event: "cart.update",
      status: "failure",
      errors: [{ code: 6001, data: [{ reason: "unknown product prod-x" }] }],
    });
  });

  it("answers account.login (parameters after the path, signed over the empty body)", async () => {
    const known = await deliver("account.login", {
      params: { code: "code-alice", state: "abcdefgh", scope: "openid", reference: "ref-1" },
      expect: "success",
    });
    expect(known.status).toBe(200);
    expect(known.json).toEqual({ status: "success" });
    // The spec leaves the separator open: the example also takes them as a query string.
    const other = await send(
      merchant,
      "/callbacks/oauth/login?code=code-bob&state=abcdefgh&scope=openid&reference=ref-2",
      { method: "GET", body: "" },
    );
    expect(other.status).toBe(401);
    expect(other.json).toEqual({
      status: "failure",
      errors: [{ code: 401, data: [{ reason: "unknown login code for reference ref-2" }] }],
    });
  });

  it("refuses a callback signed with another secret (422, code 27) before any handler runs", async () => {
    const res = await deliver("cart.update", {
      body: JSON.stringify({ event: "cart.update", data: {} }),
      secret: "not-the-secret",
      expect: "success",
    });
    expect(res.code).toBe(1);
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({
      event: "cart.update",
      status: "failure",
      errors: [{ code: 27 }],
    });
  });

  it("accepts a signed webhook delivery at /callbacks/webhooks", async () => {
    const res = await deliver("webhook", { url: `${merchant.origin}/callbacks/webhooks` });
    expect(res.status).toBe(200);
    expect(res.code).toBe(0);
  });

  it("GET /orders/:reference fetches the transaction through the client: right path, API key, answer", async () => {
    serviceLog.length = 0;
    const res = await send(merchant, "/orders/ABCD-EFGH-IJKL", { method: "GET", signWith: false });
    expect(res.status).toBe(200);
    // Only the valid key gets 200 from the stand-in; the log shows the one request and path.
    expect(serviceLog).toEqual(["GET /v1/merchant/transactions/ABCD-EFGH-IJKL -> 200"]);
    // The stand-in answers the same request the same way (seeded): what the example summarised.
    const direct = await standIn.fetch(
      new Request(`${service.url}/v1/merchant/transactions/ABCD-EFGH-IJKL`, {
        headers: { "X-API-Key": apiKey },
      }),
    );
    const tx = (await direct.json()) as Record<string, unknown>;
    expect(res.json).toEqual({
      reference: tx.reference,
      status: tx.status,
      amount: tx.amount,
      order_number: tx.merchant_order_number,
    });
  });

  it("maps the service's 404 to its own 404, and refuses a malformed reference without calling the service", async () => {
    serviceLog.length = 0;
    const res = await send(merchant, "/orders/NONE-NONE-NONE", { method: "GET", signWith: false });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ error: expect.any(String) });
    expect(serviceLog).toEqual(["GET /v1/merchant/transactions/NONE-NONE-NONE -> 404"]);
    const malformed = await send(merchant, "/orders/NOPE", { method: "GET", signWith: false });
    expect(malformed.status).toBe(400);
    expect(serviceLog).toHaveLength(1);
  });

  it("has handlers and a server that type-check against the built package", () => {
    const run = runTypeScript(typescript6, ["-p", join(example, "tsconfig.json")]);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
