/**
 * `errors.codeField` and `errors.messageField`: an API whose error body holds its code and
 * message where the client does not look by default (Anthropic's `{ type: "error", error:
 * { type, message } }`, found by a hand-written trial of its Messages API). The generated
 * package reads them there (its error class's `code` and `serverMessage`), from a server on
 * 127.0.0.1 and from its own stand-in, which writes them there; and the same where they are
 * in a list's first entry (PayPal's `details[0].issue`, found by a hand-written trial).
 */
import { mkdirSync, writeFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { importSpec } from "../generator/import/import.ts";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";

const spec = `api: { name: messages-api, title: Messages, version: 1.0.0, clientName: MessagesClient }
credentials:
  apiKey: { in: header, header: x-api-key }
errors:
  body: ErrorResponse
  codeField: error.type
  messageField: error.message
  codes:
    authentication_error: { meaning: The key is missing or wrong. }
    not_found_error: { meaning: The resource was not found. }
  responses:
    - { status: 401, code: authentication_error }
    - { status: 404, code: not_found_error }
types:
  ErrorResponse:
    fields:
      type: { const: error, required: true }
      error:
        required: true
        fields:
          type: { type: string, required: true }
          message: { type: string, required: true }
  Model:
    fields:
      id: { type: string, required: true }
endpoints:
  models.get:
    method: GET
    path: /v1/models/{model_id}
    auth: [apiKey]
    params: { model_id: string }
    response: { status: 200, body: Model }
`;

/** PayPal's: the body's `name` is a class of errors, the code that says what failed is each detail's `issue`. */
const entrySpec = `api: { name: orders-api, title: Orders, version: 1.0.0, clientName: OrdersClient }
credentials:
  token: { in: header, header: Authorization, scheme: Bearer }
errors:
  body: ErrorResponse
  codeField: details[0].issue
  messageField: details[0].description
  codes:
    AUTHENTICATION_FAILURE: { meaning: The token is missing or wrong. }
    INSTRUMENT_DECLINED: { meaning: The payment instrument was declined. }
  responses:
    - { status: 401, code: AUTHENTICATION_FAILURE }
    - { status: 422, code: INSTRUMENT_DECLINED }
types:
  ErrorResponse:
    fields:
      name: { type: string, required: true }
      message: { type: string, required: true }
      debug_id: { type: string }
      details: { type: "ErrorDetail[]", required: true }
  ErrorDetail:
    fields:
      field: { type: string }
      issue: { type: string, required: true }
      description: { type: string }
  Order:
    fields:
      id: { type: string, required: true }
endpoints:
  orders.capture:
    method: POST
    path: /v2/checkout/orders/{id}/capture
    auth: [token]
    params: { id: string }
    response: { status: 201, body: Order }
`;

let dir: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pkg: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let testing: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let orders: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let ordersTesting: any;

beforeAll(async () => {
  dir = tempDir("apigen-error-fields-");
  writeFileSync(join(dir, "api.yaml"), spec);
  await writeGenerated(dir, join(dir, "pkg"));
  pkg = await import(pathToFileURL(join(dir, "pkg/src/index.ts")).href);
  testing = await import(pathToFileURL(join(dir, "pkg/src/testing.ts")).href);
  mkdirSync(join(dir, "entry"));
  writeFileSync(join(dir, "entry/api.yaml"), entrySpec);
  await writeGenerated(join(dir, "entry"), join(dir, "orders"));
  orders = await import(pathToFileURL(join(dir, "orders/src/index.ts")).href);
  ordersTesting = await import(pathToFileURL(join(dir, "orders/src/testing.ts")).href);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error a promise rejects with. */
async function rejection(promise: PromiseLike<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error("expected a rejection");
}

describe("an error body whose code and message the spec places (errors.codeField, messageField)", () => {
  it("gives the API error its code and message from there, as the server sent them", async () => {
    const server = createServer((_, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          type: "error",
          error: { type: "not_found_error", message: "model: claude-x" },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new pkg.MessagesClient({
        baseUrl: `http://127.0.0.1:${port}`,
        apiKey: "k",
        maxRetries: 0,
      });
      const error = await rejection(client.models.get("claude-x"));
      expect(error).toBeInstanceOf(pkg.MessagesApiError);
      expect(error.code).toBe(pkg.ErrorCode.notFoundError);
      expect(error.serverMessage).toBe("model: claude-x");
      expect(String(error.message)).toBe(
        "models.get failed with 404 code not_found_error: model: claude-x",
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("is answered so by the package's stand-in: the code at error.type, in the body's type", async () => {
    const running = await testing.listen(
      testing.createStandIn({ keys: { apiKey: { valid: ["k"] } } }),
    );
    try {
      const client = new pkg.MessagesClient({
        baseUrl: running.url,
        apiKey: "wrong",
        maxRetries: 0,
      });
      const error = await rejection(client.models.get("claude-x"));
      expect(error.status).toBe(401);
      expect(error.code).toBe("authentication_error");
      expect(error.body).toEqual({
        type: "error",
        error: {
          type: "authentication_error",
          message: expect.stringMatching(/^x-api-key is not/),
        },
      });
    } finally {
      await running.close();
    }
  });

  it("goes through the package's OpenAPI document and back (x-errors): import writes both again", () => {
    const outSpec = join(dir, "again");
    const imported = importSpec({
      input: join(dir, "pkg/openapi.json"),
      outSpec,
      schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
    });
    const api = imported.files.find((f) => f.path === "api.yaml")!;
    expect(parse(api.text).errors).toMatchObject({
      body: "ErrorResponse",
      codeField: "error.type",
      messageField: "error.message",
    });
  });
});

describe("the error's message", () => {
  it("does not say the code again where it is the status (Spotify's error.status)", async () => {
    const { ApiError } = await import("../generator/runtime/client/errors.ts");
    const details = (code: number | string) => ({
      status: 429,
      endpointId: "users.me",
      code,
      message: "API rate limit exceeded",
      errors: [],
      body: {},
      headers: new Headers(),
    });
    expect(new ApiError(details(429)).message).toBe(
      "users.me failed with 429: API rate limit exceeded",
    );
    expect(new ApiError(details(7)).message).toBe(
      "users.me failed with 429 code 7: API rate limit exceeded",
    );
  });
});

describe("a message field that is a list of texts (Jira's errorMessages)", () => {
  it("is the error's message, its texts joined", async () => {
    const { withErrorFields } = await import("../generator/runtime/client/response.ts");
    const details = {
      status: 400,
      endpointId: "issues.create",
      message: "HTTP 400",
      errors: [],
      body: { errorMessages: ["Field 'priority' cannot be set.", "Summary is required."] },
      headers: new Headers(),
    };
    expect(withErrorFields(details, undefined, ["errorMessages"])).toMatchObject({
      message: "Field 'priority' cannot be set.; Summary is required.",
      serverMessage: "Field 'priority' cannot be set.; Summary is required.",
    });
    expect(
      withErrorFields({ ...details, body: { errorMessages: [] } }, undefined, ["errorMessages"]),
    ).toMatchObject({ message: "HTTP 400" });
  });
});

describe("a code and message in a list's first entry (PayPal's details[0].issue, Google's error.errors[0].reason)", () => {
  it("gives the API error the first entry's code and message, as the server sent them", async () => {
    const server = createServer((_, res) => {
      res.writeHead(422, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          name: "UNPROCESSABLE_ENTITY",
          message: "The requested action could not be performed.",
          debug_id: "b1f2c3",
          details: [
            { issue: "INSTRUMENT_DECLINED", description: "The instrument was declined." },
            { issue: "PAYER_ACTION_REQUIRED", description: "The payer must act." },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new orders.OrdersClient({
        baseUrl: `http://127.0.0.1:${port}`,
        token: "t",
        maxRetries: 0,
      });
      const error = await rejection(client.orders.capture("5O190127TN364715T"));
      expect(error).toBeInstanceOf(orders.OrdersApiError);
      // a code of capitals and underscores is named as words
      expect(orders.ErrorCode.instrumentDeclined).toBe("INSTRUMENT_DECLINED");
      expect(error.code).toBe(orders.ErrorCode.instrumentDeclined);
      expect(error.serverMessage).toBe("The instrument was declined.");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("reads nothing from an empty list, or from a field that is no list: the usual places, as before", async () => {
    const { withErrorFields } = await import("../generator/runtime/client/response.ts");
    const details = (body: unknown) => ({
      status: 422,
      endpointId: "orders.capture",
      message: "HTTP 422",
      errors: [],
      body,
      headers: new Headers(),
    });
    const path = ["details", "[0]", "issue"];
    expect(withErrorFields(details({ details: [] }), path).code).toBeUndefined();
    expect(withErrorFields(details({ details: { issue: "X" } }), path).code).toBeUndefined();
    expect(withErrorFields(details({ details: [{ issue: "X" }] }), path).code).toBe("X");
  });

  it("is answered so by the package's stand-in: its refusal's code in the first detail, in the body's type", async () => {
    const running = await ordersTesting.listen(
      ordersTesting.createStandIn({ keys: { token: { valid: ["t"] } } }),
    );
    try {
      const client = new orders.OrdersClient({ baseUrl: running.url, token: "no", maxRetries: 0 });
      const error = await rejection(client.orders.capture("5O190127TN364715T"));
      expect(error.status).toBe(401);
      expect(error.code).toBe("AUTHENTICATION_FAILURE");
      const body = error.body as { details: { issue: string; description: string }[] };
      expect(body.details[0]).toMatchObject({
        issue: "AUTHENTICATION_FAILURE",
        description: expect.stringMatching(/^Authorization is not/),
      });
      expect(body).toMatchObject({ name: expect.any(String), message: expect.any(String) });
    } finally {
      await running.close();
    }
  });

  it("goes through the package's OpenAPI document and back as it was written", () => {
    const imported = importSpec({
      input: join(dir, "orders/openapi.json"),
      outSpec: join(dir, "orders-again"),
      schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
    });
    const api = imported.files.find((f) => f.path === "api.yaml")!;
    expect(parse(api.text).errors).toMatchObject({
      codeField: "details[0].issue",
      messageField: "details[0].description",
    });
  });
});
