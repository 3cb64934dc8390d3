/**
 * Callbacks whose body is a URL-encoded form (`Content-Type: application/x-www-form-urlencoded`),
 * as Twilio sends its status callbacks: the generated router reads the fields as the body type
 * says (a number, a list of repeated keys), validates them and hands them to the handler; the
 * trigger sends the form signed the spec's way. Found by a hand-written trial of Twilio's API,
 * whose router refused every real callback as "body is not valid JSON".
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trigger } from "../generator/commands/trigger-command.ts";
import { importSpec, writeSpecFolder } from "../generator/import/import.ts";
import { loadApiModel } from "../generator/pipeline.ts";
import { listen, secret, send, signatureHeader, type Running } from "./callbacks-helpers.ts";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";

const spec = `api: { name: messaging, title: Messaging, version: 1.0.0 }
credentials:
  signing: { in: signature, header: ${signatureHeader} }
callbacks:
  message.status:
    method: POST
    path: /status
    auth: [signing]
    headers: { Content-Type: application/x-www-form-urlencoded }
    body: StatusCallback
types:
  StatusCallback:
    fields:
      MessageSid: { type: string, required: true }
      MessageStatus: { enum: [queued, sent, delivered, failed], required: true }
      ErrorCode: integer
      MediaUrl: "string[]"
`;

let dir: string;
let running: Running;
const seen: unknown[] = [];

beforeAll(async () => {
  dir = tempDir("apigen-form-callbacks-");
  mkdirSync(join(dir, "spec"));
  writeFileSync(join(dir, "spec/api.yaml"), spec);
  await writeGenerated(join(dir, "spec"), join(dir, "pkg"));
  const mod = await import(pathToFileURL(join(dir, "pkg/src/callbacks.ts")).href);
  const router = mod.createCallbackRouter({
    signingSecrets: [secret],
    handlers: { "message.status": (body: unknown) => void seen.push(body) },
  });
  running = await listen(router.node);
});
afterAll(async () => {
  await running?.close();
  rmSync(dir, { recursive: true, force: true });
});

const form = { "content-type": "application/x-www-form-urlencoded" };

describe("a callback sent as a form", () => {
  it("reaches its handler with each field read as its type: a number, a list of repeated keys", async () => {
    seen.length = 0;
    const body = "MessageSid=SM1&MessageStatus=failed&ErrorCode=30003&MediaUrl=a&MediaUrl=b";
    const answer = await send(running, "/status", { body, headers: form });
    expect(answer.status).toBe(204);
    expect(seen).toEqual([
      { MessageSid: "SM1", MessageStatus: "failed", ErrorCode: 30003, MediaUrl: ["a", "b"] },
    ]);
  });

  it("is validated as its type, naming the field; the signature covers its bytes", async () => {
    const bad = await send(running, "/status", {
      body: "MessageSid=SM1&MessageStatus=lost&ErrorCode=abc",
      headers: form,
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("body.MessageStatus");
    expect(bad.text).toContain("body.ErrorCode");
    const unsigned = await send(running, "/status", {
      body: "MessageSid=SM1&MessageStatus=sent",
      headers: form,
      signWith: "another-secret",
    });
    expect(unsigned.status).toBe(422);
  });

  it("is sent as a form by the trigger, which the router takes", async () => {
    seen.length = 0;
    const lines: string[] = [];
    const result = await trigger(
      {
        event: "message.status",
        specDir: join(dir, "spec"),
        url: `http://127.0.0.1:${running.port}`,
        secret,
      },
      (line) => lines.push(line),
    );
    expect(result.code, lines.join("\n")).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ MessageSid: expect.any(String) });
  });

  it("stays a form through the package's OpenAPI document and back", () => {
    const outSpec = join(dir, "again");
    const input = join(dir, "pkg/openapi.json");
    const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");
    writeSpecFolder(outSpec, importSpec({ input, outSpec, schemaFile }).files);
    const [callback] = loadApiModel({ specDir: outSpec }).model.callbacks;
    expect(callback!.routing.form).toEqual({ ErrorCode: "number", MediaUrl: "list" });
  });
});
