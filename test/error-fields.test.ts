/**
 * `errors.codeField` and `errors.messageField`: an API whose error body holds its code and
 * message where the client does not look by default (Anthropic's `{ type: "error", error:
 * { type, message } }`, found by a hand-written trial of its Messages API). The generated
 * package reads them there (its error class's `code` and `serverMessage`), from a server on
 * 127.0.0.1 and from its own stand-in, which writes them there.
 */
import { writeFileSync, rmSync } from "node:fs";
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

let dir: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pkg: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let testing: any;

beforeAll(async () => {
  dir = tempDir("apigen-error-fields-");
  writeFileSync(join(dir, "api.yaml"), spec);
  await writeGenerated(dir, join(dir, "pkg"));
  pkg = await import(pathToFileURL(join(dir, "pkg/src/index.ts")).href);
  testing = await import(pathToFileURL(join(dir, "pkg/src/testing.ts")).href);
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
