/**
 * The trigger under hostile answers (docs/security.md, "The trigger"): every case
 * (test/fuzz/trigger-answers.ts) sends one delivery of the Merchant spec to a raw server on
 * 127.0.0.1 that answers with a script: any status line or none, honest or lying framing,
 * bodies that never end, trickle or stall, a huge announced length, deep or broken JSON,
 * terminal escapes, and the credentials of the case (secret, API key, the user and password
 * of the URL) echoed in every spelling the trigger promises to redact. Per case:
 *
 * - `deliver` resolves (never rejects or throws) within the case's deadline and a margin,
 *   with exit status 0 or 1 and exactly one verdict, printed last;
 * - what a rule decides is what comes: a stall or a trickle is "no complete answer within N
 *   ms", an announced or sent body over the cap "answer over N bytes", an honest answer of
 *   the success type "ok, a success answer";
 * - no answer kept is over the cap; no printed line holds a credential in any of those
 *   spellings, nor a control character; the live heap (after a collection, every 100
 *   cases) stays within 128 MB of where it started.
 */
import v8 from "node:v8";
import vm from "node:vm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  deliver,
  loadTriggerModel,
  type TriggerModel,
} from "../../generator/commands/trigger-command.ts";
import { sample, seeded } from "../../generator/runtime/testing/sample.ts";
import { repoRoot } from "../helpers.ts";
import { RawServer } from "../raw-server.ts";
import { fuzzParameters, fuzzTimeout, longRun } from "./settings.ts";
import {
  bodyOf,
  play,
  secretsOf,
  spellings,
  triggerCase,
  type TriggerCase,
} from "./trigger-answers.ts";

const specDir = `${repoRoot}/spec`;
let model: TriggerModel;
let server: RawServer;
/** An answer of each event's success and failure type, made from the spec's types. */
const answers = new Map<string, { success: string; failure: string }>();

beforeAll(async () => {
  model = await loadTriggerModel(specDir);
  for (const event of model.events) {
    const made = (shape: typeof event.success) =>
      JSON.stringify(shape ? sample(shape, model.types, seeded(7)) : {});
    answers.set(event.name, { success: made(event.success), failure: made(event.failure) });
  }
  server = await RawServer.start();
});

afterAll(async () => {
  await server?.close();
});

const tally = { cases: 0, retried: 0, verdicts: new Map<string, number>() };

/**
 * The heap after a full collection: what the trigger keeps, not the garbage of the cases
 * before (which V8 may leave for hundreds of megabytes). `gc` made reachable for this file.
 */
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;
function liveHeap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
/** Control characters a terminal would act on. */
const controls = /[\u0000-\u001f\u007f-\u009f]/;

/** What the rules decide about a case's verdict, when they decide it: a pattern of the last line. */
function expectedVerdict(c: TriggerCase, bodyBytes: number): RegExp | undefined {
  const s = c.script;
  const over = `^verdict: no answer: answer over ${c.maxAnswerBytes} bytes$`;
  const late = `^verdict: no answer: no complete answer within ${c.timeoutMs} ms$`;
  if (s.head === "none" && s.ending === "keep") return new RegExp(late);
  // a header over node's 16 KiB limit ends it at the head, whatever follows
  const huge = s.extraHeaders.some(([name]) => name === "x-huge");
  if (s.head !== "ok" || huge) return undefined;
  switch (s.framing) {
    case "stall":
    case "trickle":
      // what they announce (the body and 1,000 bytes more) may be over the cap already
      return new RegExp(bodyBytes + 1000 > c.maxAnswerBytes ? over : late);
    case "hugeAnnounced":
      return new RegExp(over);
    case "endless":
      // the stream outruns the cap, unless the machine is too loaded to read it in time
      return new RegExp(`${over}|${late}`);
    case "length":
    case "chunked":
    case "toClose": {
      if (s.ending === "reset") return undefined;
      if (bodyBytes > c.maxAnswerBytes) return new RegExp(over);
      // a body that runs to the close, with no close
      if (s.framing === "toClose" && s.ending === "keep") return new RegExp(late);
      if (s.body === "success") return /^verdict: ok, a success answer of the spec's success type$/;
      return /^verdict: (ok|wrong)/;
    }
    default:
      return undefined;
  }
}

/** The URL of a case: the server's, with the user and password of its credentials. */
function urlOf(c: TriggerCase): string {
  const { user, password } = c.credentials;
  const userinfo =
    user === undefined && password === undefined
      ? ""
      : `${encodeURIComponent(user ?? "")}${password !== undefined ? `:${encodeURIComponent(password)}` : ""}@`;
  const base = server.url.replace("http://", `http://${userinfo}`);
  return c.event === "webhook" ? `${base}/webhooks` : base;
}

/**
 * Runs a case and checks it. A case that ends at its deadline where the rules expect a
 * quicker verdict may be a victim of a loaded machine (its request not even sent in 150 ms):
 * it is run again with ten times the deadline (`retry`), and must then come out as expected.
 */
async function runCase(c: TriggerCase, retry = true): Promise<void> {
  let bodyBytes = 0;
  server.answer = (socket, request) => {
    const body = bodyOf(c.script, c.credentials, request, answers.get(c.event)!, c.maxAnswerBytes);
    bodyBytes = body.byteLength;
    void play(socket, c.script, body);
  };
  const lines: string[] = [];
  const started = performance.now();
  const { secret, apiKey } = c.credentials;
  const result = await deliver(
    model,
    {
      event: c.event,
      specDir,
      url: urlOf(c),
      secret,
      ...(apiKey !== undefined ? { apiKey } : {}),
      timeoutMs: c.timeoutMs,
      maxAnswerBytes: c.maxAnswerBytes,
    },
    (line) => lines.push(line),
  );
  const elapsed = performance.now() - started;
  server.dropConnections();
  const printed = lines.join("\n");
  const where = `${JSON.stringify({ ...c.script, bytes: c.script.bytes.length })}:\n${printed.slice(0, 2000)}`;
  // a verdict in bounded time, exactly one, last
  expect(elapsed, `no verdict in time: ${where}`).toBeLessThan(c.timeoutMs + 1500);
  expect(
    lines.filter((l) => l.startsWith("verdict: ")),
    where,
  ).toHaveLength(1);
  const verdict = lines.at(-1)!;
  expect(verdict, where).toMatch(/^verdict: /);
  expect(result.code, where).toBe(verdict.startsWith("verdict: ok") ? 0 : 1);
  const expected = expectedVerdict(c, bodyBytes);
  const late = verdict === `verdict: no answer: no complete answer within ${c.timeoutMs} ms`;
  if (expected && !expected.test(verdict) && late && retry) {
    tally.retried++;
    return runCase({ ...c, timeoutMs: c.timeoutMs * 10 }, false);
  }
  if (expected) expect(verdict, where).toMatch(expected);
  // bounded memory: nothing over the cap is kept
  if (result.answer)
    expect(Buffer.byteLength(result.answer.text), where).toBeLessThanOrEqual(
      // a byte that is not UTF-8 decodes to three
      3 * c.maxAnswerBytes,
    );
  // no credential in any spelling, no control character
  for (const value of secretsOf(c.credentials)) {
    expect(printed.toLowerCase().includes(value.toLowerCase()), `${value} printed: ${where}`).toBe(
      false,
    );
    for (const spelling of spellings(value))
      expect(printed.includes(spelling), `${spelling} printed: ${where}`).toBe(false);
  }
  for (const line of lines) expect(line, where).not.toMatch(controls);
  const kind = verdict.replace(/^verdict: (ok|wrong|no answer).*$/, "$1");
  tally.verdicts.set(kind, (tally.verdicts.get(kind) ?? 0) + 1);
}

describe("the trigger under hostile answers", () => {
  it(
    "a verdict in bounded time and memory for every answer; no credential or control character printed",
    async () => {
      const heapBefore = liveHeap();
      await fc.assert(
        fc.asyncProperty(triggerCase, async (c) => {
          tally.cases++;
          await runCase(c);
          if (tally.cases % 100 === 0)
            expect(liveHeap(), "heap").toBeLessThan(heapBefore + 128 * 1024 ** 2);
        }),
        fuzzParameters(60, 10_000),
      );
      expect(liveHeap(), "heap").toBeLessThan(heapBefore + 128 * 1024 ** 2);
      if (longRun) console.log("trigger fuzz", tally);
      for (const kind of ["ok", "wrong", "no answer"])
        expect(tally.verdicts.get(kind) ?? 0, kind).toBeGreaterThan(0);
    },
    fuzzTimeout(60_000),
  );
});
