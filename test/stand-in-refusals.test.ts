/**
 * The stand-in's credential refusals as the model works them out (ir/stand-in-refusals.ts,
 * docs/testing.md "Credentials"): given a spec's credentials and errors, the status and code a
 * missing and a refused credential get. The Merchant spec's own cases are held by
 * test/stand-in.test.ts through its generated client; these are the shapes hand-written specs
 * of other APIs took (issue 31's trials of Twilio's, Anthropic's and Shopify's APIs).
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { credentialChecks } from "../generator/ir/stand-in-refusals.ts";
import { loadApiModel } from "../generator/pipeline.ts";
import { tempDir } from "./helpers.ts";

/** The missing and refused answers of the one endpoint of a spec with these errors. */
function refusals(errors: string): Record<"missing" | "rejected", [number, unknown]> {
  const dir = tempDir("apigen-refusals-");
  try {
    writeFileSync(
      join(dir, "api.yaml"),
      [
        "api: { name: refusals, title: Refusals, version: 1.0.0 }",
        "credentials:",
        "  apiKey: { in: header, header: X-Api-Key }",
        "errors:",
        errors,
        "endpoints:",
        "  items.get:",
        "    method: GET",
        "    path: /v1/items/{id}",
        "    params: { id: string }",
        "    auth: [apiKey]",
        "    response: { status: 200, body: string }",
        "",
      ].join("\n"),
    );
    const { model } = loadApiModel({ specDir: dir });
    const [check] = credentialChecks(model.endpoints[0]!, model);
    return {
      missing: [check!.missing.status, check!.missing.code],
      rejected: [check!.rejected.status, check!.rejected.code],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("credential refusals of the stand-in", () => {
  it.each([
    [
      "no credential error listed: 401 for both (a key not accepted is a failed authentication)",
      "  statuses: { 404: { meaning: Not found. } }",
      { missing: [401, undefined], rejected: [401, undefined] },
    ],
    [
      "an API-wide 401 with its code (Twilio's 20003) answers both",
      "  codes: { 20003: { meaning: Authentication failed. } }\n  responses:\n    - { status: 401, code: 20003 }",
      { missing: [401, 20003], rejected: [401, 20003] },
    ],
    [
      "an API-wide 403 is about permissions, not the key: left to Prefer",
      "  codes: { permission_error: { meaning: No permission. } }\n  responses:\n    - { status: 403, code: permission_error }",
      { missing: [401, undefined], rejected: [401, undefined] },
    ],
    [
      "the area's 401 before its 403 (Anthropic's authentication_error and permission_error)",
      "  codes:\n    permission_error: { meaning: No permission. }\n    authentication_error: { meaning: Bad key. }\n  responses:\n    - { status: 403, code: permission_error, pathPrefix: /v1/ }\n    - { status: 401, code: authentication_error, pathPrefix: /v1/ }",
      { missing: [401, "authentication_error"], rejected: [401, "authentication_error"] },
    ],
    [
      "codes named for the credential and the case win over the rest",
      "  codes:\n    1: { name: apiKeyMissing, meaning: No key. }\n    2: { name: apiKeyRejected, meaning: Bad key. }\n  responses:\n    - { status: 401, code: 1, pathPrefix: /v1/ }\n    - { status: 403, code: 2, pathPrefix: /v1/ }",
      { missing: [401, 1], rejected: [403, 2] },
    ],
  ])("%s", (_, errors, want) => {
    expect(refusals(errors)).toEqual(want);
  });
});
