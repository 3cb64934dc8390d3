/**
 * `--diff` of OAuth credentials: a scope more on an endpoint breaks callers (their tokens were
 * granted without it), a scope fewer breaks nobody, and a change of where tokens come from (a
 * flow, its token URL, the scopes it grants) is reported without breaking anyone: the
 * package's token getter asks the new place.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareModels, semverBump } from "../generator/diff/compare.ts";
import { loadModel } from "../generator/diff/load-base.ts";
import { formatChanges } from "../generator/diff/report.ts";
import { tempDir } from "./helpers.ts";

/** A spec with one OAuth credential (its flow's token URL and scopes) and one endpoint asking `scopes`. */
const spec = (tokenUrl: string, granted: string, scopes: string) => `api:
  name: diff-oauth
  title: Diff OAuth
  version: 1.0.0
credentials:
  oauth:
    in: oauth2
    flows:
      clientCredentials: { tokenUrl: ${tokenUrl}, scopes: { ${granted} } }
endpoints:
  orders.list:
    method: GET
    path: /orders
    auth: [{ credential: oauth, scopes: [${scopes}] }]
    response: { body: "string[]" }
`;

function modelOf(text: string) {
  const dir = tempDir("apigen-diff-oauth-");
  try {
    writeFileSync(join(dir, "api.yaml"), text);
    return loadModel(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const granted = "read: Read., write: Write.";
const before = modelOf(spec("/oauth/token", granted, "read"));
const squeeze = (text: string) => text.split("\n").map((l) => l.replace(/\s+/g, " ").trim());
function changes(tokenUrl: string, grants: string, scopes: string) {
  const found = compareModels(before, modelOf(spec(tokenUrl, grants, scopes)));
  return { bump: semverBump(found), lines: squeeze(formatChanges(found)).slice(0, -2) };
}

describe("OAuth scopes and token sources in --diff", () => {
  it("a scope more on an endpoint breaks callers", () => {
    expect(changes("/oauth/token", granted, "read, write")).toEqual({
      bump: "major",
      lines: [
        "BREAKING for callers endpoints.orders.list: now needs scope write of credential oauth",
      ],
    });
  });

  it("a scope fewer breaks nobody", () => {
    expect(changes("/oauth/token", granted, "")).toEqual({
      bump: "minor",
      lines: ["minor endpoints.orders.list: no longer needs scope read of credential oauth"],
    });
  });

  it("a new token URL or a scope more granted is reported, breaking nobody", () => {
    expect(changes("https://auth.example.com/token", `${granted}, admin: Admin.`, "read")).toEqual({
      bump: "minor",
      lines: [
        "minor credentials.oauth: token source oauth2 clientCredentials(/oauth/token; read write) -> oauth2 clientCredentials(https://auth.example.com/token; read write admin)",
      ],
    });
  });

  it("the same spec: no change", () => {
    expect(compareModels(before, modelOf(spec("/oauth/token", granted, "read")))).toEqual([]);
  });

  it("a credential fewer among those any one of which will do breaks callers; one more does not", () => {
    const auth = (anyOf: string) => `api:
  name: diff-any-of
  title: Diff anyOf
  version: 1.0.0
credentials:
  key: { in: header, header: X-Key }
  token: { in: header, header: Authorization, scheme: Bearer }
  basic: { in: basic }
endpoints:
  orders.list:
    method: GET
    path: /orders
    auth: [{ anyOf: [${anyOf}] }]
    response: { body: "string[]" }
`;
    const was = modelOf(auth("key, token"));
    const lines = (anyOf: string) =>
      squeeze(formatChanges(compareModels(was, modelOf(auth(anyOf))))).slice(0, -2);
    expect(lines("key, token, basic")).toEqual([
      "minor endpoints.orders.list: sends optional credential basic",
    ]);
    expect(lines("key, basic")).toEqual([
      "BREAKING for callers endpoints.orders.list: credential token no longer one of those any one of which will do",
      "minor endpoints.orders.list: sends optional credential basic",
      "minor endpoints.orders.list: no longer sends credential token",
    ]);
  });
});
