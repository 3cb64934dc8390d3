/**
 * Fields that say who writes them (test/fixtures/features/read-and-write-only): `readOnly`
 * fields (the API writes them) are in answers and left out of request bodies, `writeOnly`
 * ones (callers write them) the other way round, each `required` in its own direction only.
 * The generated client sends `AccountWritable` and reads `Account`, its request validation and
 * the stand-in on 127.0.0.1 hold requests to the writable view, response validation holds
 * answers to the read one, and a consumer file type-checked with TypeScript 6 and 7 shows the
 * types (each mistake marked `@ts-expect-error`, so a looser type fails the run).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";
import { checkUsage } from "./support/usage-check.ts";

const out = tempDir("apigen-read-write-");
let running: { url: string; close(): Promise<void> };
let client: any; // typed by the generated package, which exists only once this test made it
let validate: (check: unknown, value: unknown, path: string) => { path: string }[];
let validators: Record<string, unknown>;
const sent: unknown[] = [];

beforeAll(async () => {
  await writeGenerated("test/fixtures/features/read-and-write-only", out, { validators: "all" });
  const load = (path: string) => import(pathToFileURL(join(out, path)).href);
  const testing = await load("src/testing.ts");
  const index = await load("src/index.ts");
  ({ validate } = await load("src/runtime/validate.ts"));
  validators = await load("src/validators.ts");
  running = await testing.listen(
    testing.createStandIn({ seed: 3, keys: { token: { valid: ["tok"] } } }),
  );
  const recording: typeof fetch = async (input, init) => {
    if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
    return fetch(input, init);
  };
  client = new index.AccessClient({
    baseUrl: running.url,
    token: "tok",
    maxRetries: 0,
    fetch: recording,
    validateResponses: "throw",
    responseValidators: validators.responseValidators,
  });
}, 60_000);

afterAll(async () => {
  await running?.close();
  rmSync(out, { recursive: true, force: true });
});

const problems = (type: string, value: unknown) =>
  validate(validators[`validate${type}`], value, type).map((issue) => issue.path);
const account = { email: "ada@example.com", password: "correct horse battery" };

describe("the validators of the two directions", () => {
  it("an answer needs its readOnly fields and not its writeOnly ones; a request body the other way round", () => {
    const answered = { id: "acc_1", created: "2026-11-30T05:00:00Z", email: account.email };
    expect(problems("Account", answered)).toEqual([]);
    expect(problems("Account", { email: account.email })).toEqual([
      "Account.id",
      "Account.created",
    ]);
    expect(problems("AccountWritable", account)).toEqual([]);
    expect(problems("AccountWritable", { email: account.email })).toEqual([
      "AccountWritable.password",
    ]);
    // a writeOnly field keeps its facets in the direction that has it
    expect(problems("AccountWritable", { ...account, password: "short" })).toEqual([
      "AccountWritable.password",
    ]);
  });

  it("a tagged union's tag is in both directions, though marked readOnly", () => {
    expect(problems("PetWritable", { kind: "dog", barks: true })).toEqual([]);
    expect(problems("PetWritable", { barks: true })).not.toEqual([]);
    expect(problems("Pet", { kind: "dog", barks: true })).toEqual(["Pet<dog>.id"]);
  });
});

describe("the client and the stand-in", () => {
  it("makes an account from a body without its readOnly fields, and reads one without its writeOnly ones", async () => {
    const made = await client.accounts.create(account);
    expect(sent.at(-1)).toEqual(account);
    expect(made.id).toMatch(/^acc_/);
    expect(typeof made.created).toBe("string");
    expect(made).not.toHaveProperty("password");
    expect(problems("Account", made)).toEqual([]);
  });

  it("refuses, before sending, a body without a required writeOnly field", async () => {
    const before = sent.length;
    await expect(client.accounts.create({ email: account.email })).rejects.toThrow(/password/);
    expect(sent.length).toBe(before);
  });

  it("sends nested views (a team's accounts, an extended account, a union's variant) and reads the answers", async () => {
    const team = await client.teams.create({ name: "core", owner: account, members: [account] });
    expect(problems("Team", team)).toEqual([]);
    expect(team.owner.id).toMatch(/^acc_/);
    const admin = await client.admins.create({ ...account, level: 2 });
    expect(problems("AdminAccount", admin)).toEqual([]);
    const pet = await client.pets.create({ kind: "dog", barks: true });
    expect(problems("Pet", pet)).toEqual([]);
  });

  it("the stand-in refuses a body missing a required writeOnly field, sent past the client", async () => {
    const answer = await fetch(`${running.url}/accounts`, {
      method: "POST",
      headers: { authorization: "Bearer tok", "content-type": "application/json" },
      body: JSON.stringify({ email: account.email }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("password");
    // and takes one without the readOnly fields the answer has
    const taken = await fetch(`${running.url}/accounts`, {
      method: "POST",
      headers: { authorization: "Bearer tok", "content-type": "application/json" },
      body: JSON.stringify(account),
    });
    expect(taken.status).toBe(201);
  });
});

describe("the types", () => {
  it("TypeScript 6 and 7 accept each direction's fields and refuse the other's", () => {
    for (const run of checkUsage(out, "access-usage.ts", usage)) {
      expect(run.output, run.compiler).toBe("");
      expect(run.status, run.compiler).toBe(0);
    }
  }, 120_000);
});

/** A consumer of the generated package: what compiles, and each mistake marked. */
const usage = `import { AccessClient, type Account, type AccountWritable } from "./index.js";

export async function uses(c: AccessClient): Promise<void> {
  const made: Account = await c.accounts.create({ email: "a@b.co", password: "twelve chars" });
  const id: string = made.id;
  // @ts-expect-error a writeOnly field is in no answer
  const password = made.password;
  // @ts-expect-error the readOnly id is no part of a request body
  await c.accounts.create({ id: "acc_1", email: "a@b.co", password: "twelve chars" });
  // @ts-expect-error a required writeOnly field is required in a request body
  await c.accounts.create({ email: "a@b.co" });
  const body: AccountWritable = { email: "a@b.co", password: "twelve chars" };
  // @ts-expect-error an answer is no request body: it lacks the password
  const notABody: AccountWritable = made;

  const team = await c.teams.create({ name: "core", owner: body, members: [body] });
  const ownerId: string = team.owner.id;
  const admin = await c.admins.create({ ...body, level: 1 });
  const adminId: string = admin.id;
  await c.pets.create({ kind: "cat", lives: 9 });
  // @ts-expect-error the tag stays in a request body; the readOnly id does not
  await c.pets.create({ kind: "dog", id: "dog_1", barks: true });
  const label = await c.labels.create({ text: "x", secret: { text: "y" } });
  // @ts-expect-error an inline body leaves its readOnly fields out too
  await c.labels.create({ text: "x", made_by: "me" });
  void [id, password, notABody, ownerId, adminId, label];
}
`;
