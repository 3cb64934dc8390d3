/**
 * The stand-in of a public API example (examples/github-issues): its package generated into a
 * temporary folder, the generated `testing` entry served on 127.0.0.1 and driven by the
 * generated GitHubClient through every endpoint: JSON, text and empty bodies, an optional
 * bearer token, a required one, a list (one page: the stand-in sends no Link header), and
 * invalid input refused with the status the spec lists (422) in the generic error body.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";

const out = tempDir("apigen-stand-in-github-");
let running: { url: string; close(): Promise<void> };
let client: any; // typed by the generated package, which exists only once this test made it
let anonymous: any;
let ApiError: new (...args: never[]) => Error & { status: number; body: unknown };
let validate: (check: unknown, value: unknown, path: string) => unknown[];
let validators: Record<string, unknown>;

beforeAll(async () => {
  await writeGenerated("examples/github-issues/spec", out, { validators: "all" });
  const load = (path: string) => import(pathToFileURL(join(out, path)).href);
  const testing = await load("src/testing.ts");
  const index = await load("src/index.ts");
  ({ validate } = await load("src/runtime/validate.ts"));
  validators = await load("src/validators.ts");
  ApiError = index.GitHubApiError;
  const standIn = testing.createStandIn({ seed: 11, keys: { token: { valid: ["ghp_test"] } } });
  running = await testing.listen(standIn);
  const options = { baseUrl: running.url, maxRetries: 0 };
  client = new index.GitHubClient({ ...options, token: "ghp_test" });
  anonymous = new index.GitHubClient(options);
}, 60_000);

afterAll(async () => {
  await running?.close();
  rmSync(out, { recursive: true, force: true });
});

const valid = (type: string, value: unknown) =>
  validate(validators[`validate${type}`], value, type);

describe("stand-in of examples/github-issues, through its generated client", () => {
  it("reads issues, labels and the rate limit, anonymously where the token is optional", async () => {
    const issues: unknown[] = [];
    for await (const issue of anonymous.issues.listForRepo("octo", "hello")) issues.push(issue);
    // two pages, the first naming the second in its Link header (docs/testing.md)
    expect(issues.length).toBe(2);
    expect(valid("Issue", issues[1])).toEqual([]);
    expect(valid("Issue", issues[0])).toEqual([]);
    const issue = await anonymous.issues.get("octo", "hello", 7);
    expect(valid("Issue", issue)).toEqual([]);
    const labels = await client.labels.listForRepo("octo", "hello");
    expect(labels.every((l: unknown) => valid("Label", l).length === 0)).toBe(true);
    const limit = await client.rateLimit.get().withResponse();
    expect(valid("RateLimitOverview", limit.data)).toEqual([]);
    // The response header the spec declares is sent, and the client parses it by its type.
    expect(Number.isInteger(limit.headers["X-RateLimit-Remaining"])).toBe(true);
  });

  it("writes: create, update, lock (204) and unlock with the token", async () => {
    const created = await client.issues.create("octo", "hello", { title: "Found a bug" });
    expect(valid("Issue", created)).toEqual([]);
    const updated = await client.issues.update("octo", "hello", 1, { state: "closed" });
    expect(valid("Issue", updated)).toEqual([]);
    await expect(client.issues.lock("octo", "hello", 1, {})).resolves.toBeUndefined();
    await expect(client.issues.unlock("octo", "hello", 1)).resolves.toBeUndefined();
  });

  it("answers text endpoints with text", async () => {
    expect(typeof (await anonymous.meta.zen())).toBe("string");
    expect(typeof (await client.markdown.renderRaw("**hi**"))).toBe("string");
  });

  it("refuses a missing or wrong token where it is required, with the generic error body", async () => {
    // The client itself refuses to send without the token: the request is made by hand.
    const missing = await fetch(`${running.url}/repos/octo/hello/issues`, {
      method: "POST",
      body: JSON.stringify({ title: "x" }),
    });
    // The endpoint lists 403 as its only credential refusal, so a missing token gets it too.
    expect(missing.status).toBe(403);
    expect(await missing.json()).toEqual({ message: "Authorization is required" });
    const wrong = new (client.constructor as new (o: object) => typeof client)({
      baseUrl: running.url,
      maxRetries: 0,
      token: "ghp_other",
    });
    const refused = await wrong.issues.lock("octo", "hello", 1, {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.status).toBe(403);
  });

  it("refuses invalid input with the status its API version declares (422), naming the field", async () => {
    const res = await fetch(`${running.url}/repos/octo/hello/issues`, {
      method: "POST",
      headers: { Authorization: "Bearer ghp_test", "Content-Type": "application/json" },
      body: JSON.stringify({ body: "no title" }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ message: "body.title: is required" });
    // The version (X-GitHub-Api-Version 2022-11-28) says invalidInputStatus: 422 for every
    // endpoint, issues.get too, which lists no 422 of its own.
    const number = await fetch(`${running.url}/repos/octo/hello/issues/seven`);
    expect(number.status).toBe(422);
    expect(((await number.json()) as { message: string }).message).toMatch(
      /^params\.issue_number: /,
    );
  });
});

describe("stand-in of examples/openai-chat: a body flag asks for a stream", () => {
  const openai = tempDir("apigen-stand-in-openai-");
  let oa: any; // typed by the generated package, which exists only once this test made it
  let service: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    await writeGenerated("examples/openai-chat/spec", openai);
    const load = (path: string) => import(pathToFileURL(join(openai, path)).href);
    const testing = await load("src/testing.ts");
    const index = await load("src/index.ts");
    service = await testing.listen(testing.createStandIn({ seed: 2 }));
    oa = new index.OpenAIClient({ baseUrl: service.url, apiKey: "sk-test", maxRetries: 0 });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    rmSync(openai, { recursive: true, force: true });
  });

  it("answers JSON without the flag and server-sent events (ended by [DONE]) with it", async () => {
    const request = { model: "gpt-test", messages: [{ role: "user", content: "hi" }] };
    const completion = await oa.chatCompletions.create(request);
    expect(typeof completion).toBe("object");
    const chunks: unknown[] = [];
    for await (const chunk of await oa.chatCompletions.create({ ...request, stream: true }))
      chunks.push(chunk);
    expect(chunks.length).toBe(1);
    const events: string[] = [];
    const stream = await oa.responses.create({ model: "gpt-test", input: "hi", stream: true });
    for await (const event of stream) events.push(event.type ?? event.event ?? "?");
    expect(events.length).toBeGreaterThan(1);
  });

  it("sends a stream's error item when asked (Prefer: stream-error), which the client throws", async () => {
    const request = { model: "gpt-test", messages: [{ role: "user", content: "hi" }] };
    const asked = { headers: { Prefer: "stream-error=rate_limit_exceeded" } };
    const chunks: unknown[] = [];
    const failure = await (async () => {
      for await (const chunk of await oa.chatCompletions.create(
        { ...request, stream: true },
        asked,
      ))
        chunks.push(chunk);
    })().catch((e: unknown) => e);
    expect(chunks).toHaveLength(1);
    expect(failure).toMatchObject({
      name: "OpenAIApiError",
      status: 200,
      code: "rate_limit_exceeded",
      streamItem: 1,
      body: { error: { code: "rate_limit_exceeded" } },
    });
    const events = await (async () => {
      const stream = await oa.responses.create(
        { model: "gpt-test", input: "hi", stream: true },
        {
          headers: { Prefer: "stream-error" },
        },
      );
      for await (const event of stream) void event;
    })().catch((e: unknown) => e);
    expect(events).toMatchObject({ name: "OpenAIApiError", streamItem: 1 });
    expect((events as { body: unknown }).body).toMatchObject({ type: "error" });
  });
});
