/**
 * The signature schemes (generator/runtime/callbacks/schemes.ts, issue 32 item 4) under
 * random and hostile input, at the verifier the router uses for every signed route:
 *
 * - whatever a service writes with the runtime's signer (the trigger's) under any scheme, any
 *   body, any set of secrets, signing time and delivery id, the verifier of a router that
 *   knows any one of those secrets takes it; one byte of the body changed, or another secret,
 *   and it is refused as a mismatch;
 * - any header text (and any id and timestamp header beside it) is read without a throw and
 *   never taken, and no refusal's message repeats a secret.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  signatureHeaders,
  type SignatureScheme,
} from "../../generator/runtime/callbacks/schemes.ts";
import { createSignatureVerifier } from "../../generator/runtime/callbacks/signature.ts";
import { hostileText } from "./hostile-texts.ts";
import { fuzzParameters, fuzzTimeout } from "./settings.ts";

const schemes: readonly SignatureScheme[] = [
  { name: "hmac-sha256-base64" },
  { name: "hmac-sha256-base64", prefix: "sha256=" },
  { name: "hmac-sha256-hex" },
  { name: "hmac-sha256-hex", prefix: "sha256=" },
  { name: "timestamped", timestamp: "t" },
  { name: "standard-webhooks", id: "webhook-id", timestamp: "webhook-timestamp" },
];

const header = "X-Sig";

/** A secret the scheme can key with: Standard Webhooks wants whsec_ and base64 key bytes. */
const secretFor = (scheme: SignatureScheme): fc.Arbitrary<string> =>
  scheme.name === "standard-webhooks"
    ? fc
        .uint8Array({ minLength: 1, maxLength: 64 })
        .map((key) => `whsec_${Buffer.from(key).toString("base64")}`)
    : fc.string({ minLength: 1, maxLength: 40 });

/** The headers object of a request, as the router reads it (names case-insensitively). */
const reader = (headers: Record<string, string>) => ({
  get: (name: string) =>
    Object.entries(headers).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1] ?? null,
});

const content = (body: Uint8Array<ArrayBuffer>, headers: Record<string, string>) => ({
  body,
  method: "POST",
  target: "/hooks",
  headers: reader(headers),
});

const signedCase = fc.constantFrom(...schemes).chain((scheme) =>
  fc.record({
    scheme: fc.constant(scheme),
    secrets: fc.uniqueArray(secretFor(scheme), { minLength: 1, maxLength: 3 }),
    other: secretFor(scheme),
    body: fc.uint8Array({ maxLength: 300 }),
    timestamp: fc.integer({ min: 0, max: 99_999_999_999 }),
    id: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
    known: fc.nat(),
    flip: fc.nat(),
  }),
);

describe("signature schemes: what the signer writes, the verifier reads", () => {
  it(
    "takes every signed delivery with any one of the secrets, refuses one byte changed or another secret",
    async () => {
      await fc.assert(
        fc.asyncProperty(signedCase, async (c) => {
          // distinct as key bytes too (two lone surrogates both encode as U+FFFD)
          const bytesOf = (s: string) => Buffer.from(s).toString("hex");
          fc.pre(!c.secrets.map(bytesOf).includes(bytesOf(c.other)));
          const body = new Uint8Array(c.body);
          const written = await signatureHeaders(c.scheme, header, c.secrets, body, c);
          // one signature under the first secret, or one per secret where the scheme carries several
          const several = c.scheme.name === "timestamped" || c.scheme.name === "standard-webhooks";
          const known = several ? c.secrets[c.known % c.secrets.length]! : c.secrets[0]!;
          const verify = createSignatureVerifier([known], {}, c.scheme, header);
          expect(await verify(written[header], content(body, written))).toEqual({ ok: true });
          const changed = new Uint8Array(body.length === 0 ? [0] : body);
          if (body.length > 0) changed[c.flip % body.length]! ^= 1;
          expect(await verify(written[header], content(changed, written))).toEqual({
            ok: false,
            reason: "mismatch",
          });
          const stranger = createSignatureVerifier([c.other], {}, c.scheme, header);
          expect(await stranger(written[header], content(body, written))).toEqual({
            ok: false,
            reason: "mismatch",
          });
        }),
        fuzzParameters(300, 10_000),
      );
    },
    fuzzTimeout(60_000),
  );

  it(
    "reads any header text without a throw, never takes it, and never repeats a secret",
    async () => {
      const secret = "s3cr3t-of-the-endpoint";
      const whsec = `whsec_${Buffer.from(secret).toString("base64")}`;
      const text = fc.oneof(
        hostileText,
        fc.string({ maxLength: 80 }),
        // near-misses: the scheme's own shapes around random pieces
        fc
          .tuple(
            fc.constantFrom("t=", "v1=", "v1,", "sha256=", "v1a,", ",", " ", "=", ""),
            fc.string({ maxLength: 70 }),
          )
          .map(([a, b]) => a + b),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...schemes),
          text,
          text,
          text,
          fc.uint8Array({ maxLength: 50 }),
          async (scheme, value, id, timestamp, bytes) => {
            const secrets = scheme.name === "standard-webhooks" ? [whsec] : [secret];
            const verify = createSignatureVerifier(secrets, {}, scheme, header);
            const headers = { "webhook-id": id, "webhook-timestamp": timestamp, [header]: value };
            const check = await verify(value, content(new Uint8Array(bytes), headers));
            expect(check.ok).toBe(false);
            if (!check.ok) {
              expect(["missing", "malformed", "mismatch"]).toContain(check.reason);
              expect(check.message ?? "").not.toContain(secret);
            }
          },
        ),
        fuzzParameters(500, 10_000),
      );
    },
    fuzzTimeout(60_000),
  );
});
