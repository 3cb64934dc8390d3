/**
 * The browser build's redaction, always on in its request loop (browser.ts; no feature
 * switches it: docs/client.md, "The browser build"), given no features here: whatever a server
 * echoes, a credential (4 characters or more, of any characters but the brackets of the
 * `[redacted]` it is replaced with) never appears as it is spelled, in any ASCII case, in an
 * error's message, `JSON.stringify`, body or headers, nor in the message of a failed
 * connection whose text holds it. The answers come from a `fetch` double: the loop's redaction
 * is what is tested, its requests on a real server are test/client-browser.test.ts's.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ClientCore, operation } from "../../generator/runtime/client/browser.ts";
import { ApiError } from "../../generator/runtime/client/errors.ts";
import { fuzzParameters, fuzzTimeout } from "./settings.ts";

const op = operation(
  JSON.stringify({
    id: "things.get",
    method: "GET",
    path: "/things",
    credentials: [{ option: "key", header: "X-Key" }],
    headers: {},
    documentedResponse: true,
  }),
);

/** A credential: printable characters and some beyond ASCII, no brackets. */
const secret = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom(..."abcXYZ019_-./+=:~!$*()?^|\\ %&#;\"'"),
      fc.constantFrom(..."éßΩ文😀"),
    ),
    minLength: 4,
    maxLength: 24,
  })
  .filter((s) => !/[[\]]/.test(s));

/** The secret with the case of some of its ASCII letters flipped. */
const spelled = (s: string, flips: boolean[]) =>
  Array.from(s, (c, i) =>
    flips[i % flips.length] && /[a-z]/i.test(c)
      ? c === c.toLowerCase()
        ? c.toUpperCase()
        : c.toLowerCase()
      : c,
  ).join("");

/** Whether `text` holds the secret in any ASCII case. */
const holds = (text: string, s: string) => text.toLowerCase().includes(s.toLowerCase());

describe("browser build redaction", () => {
  it(
    "keeps an echoed credential out of every error",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          secret,
          fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
          fc.string({ maxLength: 20 }),
          fc.string({ maxLength: 20 }),
          fc.constantFrom(400, 403, 422, 500),
          async (key, flips, before, after, status) => {
            const echo = before + spelled(key, flips) + after;
            const latin1 = /^[\0-\xff]*$/.test(echo);
            const answer = () =>
              new Response(JSON.stringify({ errors: [{ code: 1, message: echo }], echo }), {
                status,
                headers: latin1 ? { "x-echo": echo } : {},
              });
            const client = new ClientCore(
              { baseUrl: "https://api.test", fetch: async () => answer() },
              { key },
              ApiError,
            );
            let error: unknown;
            await client.request(op).then(undefined, (e: unknown) => (error = e));
            expect(error).toBeInstanceOf(ApiError);
            const apiError = error as ApiError;
            for (const text of [
              apiError.message,
              JSON.stringify(apiError),
              JSON.stringify(apiError.body),
              apiError.headers.get("x-echo") ?? "",
            ])
              expect(holds(text, key), text).toBe(false);

            const refused = new ClientCore(
              {
                baseUrl: "https://api.test",
                fetch: async () => {
                  throw new TypeError(`cannot send ${echo}`);
                },
              },
              { key },
              ApiError,
            );
            let failure: unknown;
            await refused.request(op).then(undefined, (e: unknown) => (failure = e));
            expect((failure as Error).name).toBe("ConnectionError");
            expect(holds((failure as Error).message, key)).toBe(false);
          },
        ),
        fuzzParameters(300),
      );
    },
    fuzzTimeout(20_000),
  );
});
