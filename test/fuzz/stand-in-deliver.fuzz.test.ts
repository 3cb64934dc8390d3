/**
 * The stand-in's deliveries (`standIn.deliver`, runtime/testing/deliver.ts) under hostile
 * answers: the trigger fuzzer's scripts (test/fuzz/trigger-answers.ts: any status line or
 * none, lying framing, bodies that never end, trickles, stalls, huge announced lengths, the
 * credentials echoed) played by a raw server on 127.0.0.1 to one delivery of the Merchant
 * package's stand-in (generated/src/testing.ts). Per case:
 *
 * - `deliver` resolves (never rejects) within the case's deadline and a margin;
 * - a stall or a huge announced length is never an answer (a huge one held open is "answer
 *   over N bytes" or "no complete answer within N ms"); a GET with a body (`product.info`)
 *   is not sent;
 * - no body kept is over the cap; no problem holds the secret or the API key in any spelling.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStandIn } from "../../generated/src/testing.ts";
import { RawServer } from "../raw-server.ts";
import { fuzzParameters, fuzzTimeout } from "./settings.ts";
import { bodyOf, play, spellings, triggerCase, type TriggerCase } from "./trigger-answers.ts";

let server: RawServer;
const tally = { cases: 0, answered: 0, problems: new Map<string, number>() };

beforeAll(async () => {
  server = await RawServer.start();
});

afterAll(async () => {
  await server?.close();
  console.log(
    `stand-in deliveries: ${tally.cases} cases, ${tally.answered} answered; problems: ${JSON.stringify(Object.fromEntries(tally.problems))}`,
  );
});

/** The success answer the receiver gives for `success` bodies (any JSON does: no verdict here). */
const answers = { success: '{"ok":true}', failure: '{"ok":false}' };

async function runCase(c: TriggerCase): Promise<void> {
  // the URL carries no user or password: createStandIn refuses them (test/stand-in-deliver.test.ts)
  const credentials = { ...c.credentials, user: undefined, password: undefined };
  server.answer = (socket, request) => {
    const body = bodyOf(c.script, credentials, request, answers, c.maxAnswerBytes);
    void play(socket, c.script, body);
  };
  const { secret, apiKey } = credentials;
  const standIn = createStandIn({
    deliver: {
      url: server.url,
      webhookUrl: `${server.url}/webhooks`,
      secret,
      ...(apiKey !== undefined ? { apiKey } : {}),
      timeoutMs: c.timeoutMs,
      maxAnswerBytes: c.maxAnswerBytes,
    },
  });
  const started = performance.now();
  const outcome = await standIn.deliver(c.event);
  const elapsed = performance.now() - started;
  server.dropConnections();
  const where = `${JSON.stringify({ ...c.script, bytes: c.script.bytes.length, event: c.event })}: ${JSON.stringify(outcome).slice(0, 500)}`;
  expect(elapsed, `no outcome in time: ${where}`).toBeLessThan(c.timeoutMs + 1500);
  const s = c.script;
  if (c.event === "product.info") {
    // a GET with a body: fetch cannot send it, so nothing is sent
    expect(outcome, where).toMatchObject({ answered: false });
    expect((outcome as { problem: string }).problem, where).toContain("fetch cannot send");
  } else if (
    s.head === "ok" &&
    // a header over the HTTP parser's limit ends it at the head, whatever follows
    !s.extraHeaders.some(([name]) => name === "x-huge") &&
    (s.framing === "hugeAnnounced" || s.framing === "stall")
  ) {
    // a body that never comes whole, or is announced over the cap, is never an answer (the
    // problem says why: over the cap, late, or the connection the server gave up)
    expect(outcome, where).toMatchObject({ answered: false });
    if (s.framing === "hugeAnnounced" && s.ending === "keep")
      expect((outcome as { problem: string }).problem, where).toMatch(
        new RegExp(
          `^(answer over ${c.maxAnswerBytes} bytes|no complete answer within ${c.timeoutMs} ms)$`,
        ),
      );
  }
  if (outcome.answered) {
    tally.answered++;
    expect(new TextEncoder().encode(outcome.body).byteLength, where).toBeLessThanOrEqual(
      // a byte that is not UTF-8 decodes to three
      3 * c.maxAnswerBytes,
    );
  } else {
    const kind = outcome.problem.replace(/\d+/g, "N").slice(0, 60);
    tally.problems.set(kind, (tally.problems.get(kind) ?? 0) + 1);
    for (const value of [secret, apiKey].filter((v): v is string => (v?.length ?? 0) >= 4))
      for (const spelling of spellings(value))
        expect(outcome.problem.includes(spelling), `${spelling} in the problem: ${where}`).toBe(
          false,
        );
  }
}

describe("the stand-in's deliveries under hostile answers", () => {
  it(
    "an outcome in bounded time for every answer; bodies within the cap; no credential in a problem",
    async () => {
      await fc.assert(
        fc.asyncProperty(triggerCase, async (c) => {
          tally.cases++;
          await runCase(c);
        }),
        fuzzParameters(40, 10_000),
      );
    },
    fuzzTimeout(60_000),
  );
});
