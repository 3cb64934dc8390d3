/**
 * `generate --diff`: every kind of change between two specs, classified for callers of the
 * client and implementers of the callback handlers, with the semver bump it implies.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareModels, semverBump } from "../generator/diff/compare.ts";
import { loadBaseModel, loadModel } from "../generator/diff/load-base.ts";
import { formatChanges } from "../generator/diff/report.ts";
import { repoRoot, runCli, tempDir } from "./helpers.ts";

const fixtures = join(repoRoot, "test/fixtures/diff");
const base = loadModel(join(fixtures, "base"));

/** Each fixture folder next to `base` changes one thing; its expected lines and bump. */
const cases: [string, string[], string][] = [
  [
    "response-field-removed",
    ["BREAKING for callers types.Order.total: field removed (callers read it)"],
    "major",
  ],
  [
    "response-field-added",
    ["minor types.Order.currency: optional field added (callers read it)"],
    "minor",
  ],
  [
    "request-field-added-optional",
    ["minor types.CreateOrder.coupon: optional field added (callers write it)"],
    "minor",
  ],
  [
    "request-field-added-required",
    ["BREAKING for callers types.CreateOrder.buyer: required field added (callers write it)"],
    "major",
  ],
  [
    "field-type-changed",
    ["BREAKING for callers types.Order.total: type integer -> string (callers read it)"],
    "major",
  ],
  [
    "response-field-became-optional",
    ["BREAKING for callers types.Order.id: required -> optional (callers read it)"],
    "major",
  ],
  [
    "request-field-became-required",
    ["BREAKING for callers types.CreateOrder.note: optional -> required (callers write it)"],
    "major",
  ],
  [
    "response-field-became-nullable",
    ["BREAKING for callers types.Order.total: may now be null (callers read it)"],
    "major",
  ],
  [
    "response-enum-value-added",
    ['BREAKING for callers types.Order.status: enum value "refunded" added (callers read it)'],
    "major",
  ],
  [
    "response-enum-value-removed",
    ['minor types.Order.status: enum value "paid" removed (callers read it)'],
    "minor",
  ],
  ["error-code-added", ["minor errors.codes.18: error code 18 (permissionDenied) added"], "minor"],
  [
    "error-code-removed",
    ["BREAKING for callers errors.codes.1005: error code 1005 (apiKeyRejected) removed"],
    "major",
  ],
  [
    "error-body-added",
    ["minor types.Problem: type added", "minor errors.body: error body typed as Problem"],
    "minor",
  ],
  ["endpoint-added", ["minor endpoints.orders.list: endpoint added"], "minor"],
  ["endpoint-removed", ["BREAKING for callers endpoints.orders.get: endpoint removed"], "major"],
  [
    "callback-added",
    [
      "BREAKING for implementers callbacks.order.notify: callback added (a handler is now required)",
    ],
    "major",
  ],
  [
    "callback-answer-field-added-required",
    [
      "BREAKING for implementers types.CheckSuccess.reason: required field added (implementers write it)",
    ],
    "major",
  ],
  [
    "callback-request-field-added",
    ["minor types.CheckRequest.amount: optional field added (implementers read it)"],
    "minor",
  ],
  [
    "callback-request-field-removed",
    ["BREAKING for implementers types.CheckRequest.order_id: field removed (implementers read it)"],
    "major",
  ],
  ["gap-notes-only", ["patch gaps: undocumented notes changed"], "patch"],
  ["no-change", ["no changes"], "none"],
];

const squeeze = (text: string) => text.split("\n").map((l) => l.replace(/\s+/g, " ").trim());

describe("model diff", () => {
  it.each(cases)("%s", (name, lines, bump) => {
    const changes = compareModels(base, loadModel(join(fixtures, name)));
    expect(semverBump(changes)).toBe(bump);
    const printed = squeeze(formatChanges(changes));
    expect(printed.slice(0, -2)).toEqual(lines);
    expect(printed.at(-1)).toMatch(new RegExp(`^semver: ${bump} \\(`));
  });

  it("breaks callers when the API's error body becomes another type", () => {
    const before = loadModel(join(fixtures, "error-body-added"));
    const changes = compareModels(before, loadModel(join(fixtures, "error-body-changed")));
    expect(semverBump(changes)).toBe("major");
    expect(squeeze(formatChanges(changes))).toContain(
      "BREAKING for callers errors.body: error body Problem -> Order",
    );
  });

  it("direction flips between callers and implementers for the same change", () => {
    const readerAdds = compareModels(
      base,
      loadModel(join(fixtures, "callback-request-field-added")),
    );
    const writerAdds = compareModels(
      base,
      loadModel(join(fixtures, "callback-answer-field-added-required")),
    );
    expect(readerAdds.map((c) => c.level)).toEqual(["minor"]);
    expect(writerAdds.map((c) => [c.level, c.breaks])).toEqual([["breaking", ["implementers"]]]);
  });

  it("reads the base from a git revision of the spec folder", () => {
    const repo = tempDir("apigen-diff-git-");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
    git("init", "-q");
    git("config", "user.email", "t@example.invalid");
    git("config", "user.name", "t");
    cpSync(join(fixtures, "base"), join(repo, "spec"), { recursive: true });
    git("add", ".");
    git("commit", "-qm", "base");
    writeFileSync(
      join(repo, "spec/api.yaml"),
      execFileSync("cat", [join(fixtures, "response-field-removed/api.yaml")], {
        encoding: "utf8",
      }),
    );
    const leftBefore = readdirSync(tmpdir()).filter((name) => name.startsWith("apigen-base-"));
    const changes = compareModels(
      loadBaseModel("HEAD", join(repo, "spec")),
      loadModel(join(repo, "spec")),
    );
    expect(changes.map((c) => `${c.subject}: ${c.description}`)).toEqual([
      "types.Order.total: field removed (callers read it)",
    ]);
    // The extracted revision is removed once loaded.
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith("apigen-base-"))).toEqual(
      leftBefore,
    );
    rmSync(repo, { recursive: true, force: true });
  });

  it("says in one line of its own that BASE is no revision, never git's command or its stderr (issue 30 item 14)", async () => {
    const repo = tempDir("apigen-diff-git-");
    const plain = tempDir("apigen-diff-plain-");
    try {
      const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
      git("init", "-q");
      git("config", "user.email", "t@example.invalid");
      git("config", "user.name", "t");
      writeFileSync(join(repo, "README.md"), "no spec yet\n");
      git("add", ".");
      git("commit", "-qm", "before the spec");
      cpSync(join(fixtures, "base"), join(repo, "spec"), { recursive: true });
      git("add", ".");
      git("commit", "-qm", "the spec");
      cpSync(join(fixtures, "base"), join(plain, "spec"), { recursive: true });

      const diff = async (cwd: string, base: string) => {
        const run = await runCli(["diff", "--", base], cwd);
        expect(run.status, run.stderr).toBe(1);
        expect(run.stderr).not.toMatch(
          /git [a-z-]+ -|fatal:|Command failed|internal error|^\s+at /m,
        );
        expect(run.stderr).toMatch(/^[^\n]+\n$/); // one line
        expect(run.stdout).toBe("");
        return run.stderr;
      };
      const noRevision = (base: string) =>
        `no folder ${base} and no revision ${base} in this repository: BASE is a spec folder, or a commit, branch or tag of the repository\n`;
      expect(await diff(repo, "nonexistent-rev")).toBe(noRevision("nonexistent-rev"));
      // an option in git's place reads as no revision, and git never takes it as an option
      expect(await diff(repo, "--output=written")).toBe(noRevision("--output=written"));
      expect(existsSync(join(repo, "written"))).toBe(false);
      expect(await diff(repo, "HEAD:spec")).toBe(noRevision("HEAD:spec"));
      expect(await diff(repo, "HEAD~1")).toBe("revision HEAD~1 has no spec files under spec/\n");
      expect(await diff(plain, "HEAD")).toBe(
        "no folder HEAD, and spec/ is in no git repository to read revision HEAD from\n",
      );
      expect((await runCli(["diff", "HEAD"], repo)).status).toBe(0);
    } finally {
      rmSync(repo, { recursive: true, force: true });
      rmSync(plain, { recursive: true, force: true });
    }
  });

  it("finds nothing between the Merchant spec and itself", () => {
    const merchant = loadModel(join(repoRoot, "spec"));
    expect(compareModels(merchant, merchant)).toEqual([]);
  });
});

describe("a path parameter becoming a catch-all (slashes: true), or ceasing to be one", () => {
  const modelOf = (slashes: boolean) => {
    const dir = tempDir("apigen-diff-slashes-");
    try {
      writeFileSync(
        join(dir, "api.yaml"),
        `api: { name: diff-slashes, title: Diff Slashes, version: 1.0.0 }
endpoints:
  files.get:
    method: GET
    path: /files/{path}
    params:
      path: { type: string${slashes ? ", slashes: true" : ""} }
    response: { body: string }
`,
      );
      return loadModel(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  it("is said both ways: the same call reaches another URL", () => {
    const [plain, catchAll] = [modelOf(false), modelOf(true)];
    const lines = (a: typeof plain, b: typeof plain) =>
      squeeze(formatChanges(compareModels(a, b))).slice(0, -2);
    expect(lines(plain, catchAll)).toEqual([
      "minor endpoints.files.get.params.path: its slashes now sent as they are",
    ]);
    expect(lines(catchAll, plain)).toEqual([
      "minor endpoints.files.get.params.path: its slashes now sent as %2F",
    ]);
  });
});

describe("params, credentials and string codes (issue 13)", () => {
  /** A one-endpoint spec with `params`, `auth` and a code catalogue written in. */
  const spec = (params: string, auth: string, codes: string) => `api:
  name: diff-params
  title: Diff Params
  version: 1.0.0
credentials:
  token: { in: header, header: Authorization, scheme: Bearer }
errors:
  codes:
${codes}
endpoints:
  issues.list:
    method: GET
    path: /issues
    auth: ${auth}
    params:
${params}
    response: { body: "string[]" }
`;
  const modelOf = (text: string) => {
    const dir = tempDir("apigen-diff-params-");
    try {
      writeFileSync(join(dir, "api.yaml"), text);
      return loadModel(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const before = modelOf(
    spec(
      "      state: { in: query, type: string }\n      page: { in: query, type: integer }",
      "[{ credential: token, optional: true }]",
      "    card_declined: { meaning: Declined. }\n    1005: { meaning: Rejected. }",
    ),
  );
  const lines = (after: ReturnType<typeof modelOf>) =>
    squeeze(formatChanges(compareModels(before, after))).slice(0, -2);

  it("a query parameter becoming required and a required header added break callers", () => {
    const after = modelOf(
      spec(
        "      state: { in: query, type: string, required: true }\n      page: { in: query, type: integer, style: comma }\n      If-None-Match: { in: header, type: string, required: true }",
        "[{ credential: token, optional: true }]",
        "    card_declined: { meaning: Declined. }\n    1005: { meaning: Rejected. }",
      ),
    );
    expect(lines(after)).toEqual([
      "BREAKING for callers endpoints.issues.list.params.state: parameter became required",
      "BREAKING for callers endpoints.issues.list.params.If-None-Match: required header parameter added",
      "minor endpoints.issues.list.params.page: style repeat -> comma",
    ]);
  });

  it("a parameter's name on the wire changing is said (the call keeps its key)", () => {
    const after = modelOf(
      spec(
        "      state: { in: query, name: status, type: string }\n      page: { in: query, type: integer }",
        "[{ credential: token, optional: true }]",
        "    card_declined: { meaning: Declined. }\n    1005: { meaning: Rejected. }",
      ),
    );
    expect(lines(after)).toEqual([
      "minor endpoints.issues.list.params.state: travels as state -> status",
    ]);
  });

  it("an optional credential becoming required breaks callers; a string code removed too", () => {
    const after = modelOf(
      spec(
        "      state: { in: query, type: string }\n      page: { in: query, type: integer }",
        "[token]",
        "    1005: { meaning: Rejected. }",
      ),
    );
    expect(lines(after)).toEqual([
      "BREAKING for callers endpoints.issues.list: now needs credential token",
      "BREAKING for callers errors.codes.card_declined: error code card_declined (cardDeclined) removed",
    ]);
  });
});

describe("signature schemes, signing times and delivery ids (issue 32; issue 30's follow-up)", () => {
  /** A spec with one signed callback, its signature credential's keys written in. */
  const spec = (signer: string) => `api:
  name: diff-signing
  title: Diff Signing
  version: 1.0.0
credentials:
  signer: { in: signature, header: X-Signature${signer} }
callbacks:
  order.paid:
    method: POST
    path: /order-paid
    auth: [signer]
    body: { fields: { id: string } }
`;
  const modelOf = (text: string) => {
    const dir = tempDir("apigen-diff-signing-");
    try {
      writeFileSync(join(dir, "api.yaml"), text);
      return loadModel(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const before = modelOf(spec(""));
  const changes = (signer: string) => compareModels(before, modelOf(spec(signer)));
  const lines = (signer: string) => squeeze(formatChanges(changes(signer))).slice(0, -2);

  it("a scheme named where none was breaks receivers, with the signing time it implies", () => {
    expect(lines(", scheme: timestamped")).toEqual([
      "BREAKING for implementers credentials.signer: signature scheme hmac-sha256-base64 -> timestamped (receivers verify the new form)",
      "BREAKING for implementers credentials.signer: signing time none -> signature t (receivers verify the new form)",
    ]);
    expect(semverBump(changes(", scheme: timestamped"))).toBe("major");
  });

  it("a prefix, another encoding, a timestamp header and a delivery id each break receivers", () => {
    expect(lines(", prefix: sha256=")).toEqual([
      "BREAKING for implementers credentials.signer: signature scheme hmac-sha256-base64 -> hmac-sha256-base64 (prefix sha256=) (receivers verify the new form)",
    ]);
    expect(lines(", scheme: hmac-sha256-hex")).toEqual([
      "BREAKING for implementers credentials.signer: signature scheme hmac-sha256-base64 -> hmac-sha256-hex (receivers verify the new form)",
    ]);
    expect(
      lines(
        ", timestamp: { in: header, name: X-Sig-Time }, deliveryId: { in: header, name: X-Delivery }",
      ),
    ).toEqual([
      "BREAKING for implementers credentials.signer: signing time none -> header X-Sig-Time (receivers verify the new form)",
      "BREAKING for implementers credentials.signer: delivery id none -> header X-Delivery (receivers verify the new form)",
    ]);
  });

  it("a signs template added or changed breaks receivers; the time it names is said once", () => {
    const timed = ", timestamp: { in: header, name: X-Sig-Time }";
    const before = modelOf(spec(timed));
    const slack = modelOf(spec(`${timed}, signs: "v0:{timestamp}:{body}"`));
    expect(squeeze(formatChanges(compareModels(before, slack))).slice(0, -2)).toEqual([
      "BREAKING for implementers credentials.signer: signature scheme hmac-sha256-base64 -> hmac-sha256-base64 (signs v0:{timestamp}:{body}) (receivers verify the new form)",
    ]);
    const reordered = modelOf(spec(`${timed}, signs: "{timestamp}.{body}"`));
    expect(squeeze(formatChanges(compareModels(slack, reordered))).slice(0, -2)).toEqual([
      "BREAKING for implementers credentials.signer: signature scheme hmac-sha256-base64 (signs v0:{timestamp}:{body}) -> hmac-sha256-base64 (signs {timestamp}.{body}) (receivers verify the new form)",
    ]);
    expect(compareModels(slack, modelOf(spec(`${timed}, signs: "v0:{timestamp}:{body}"`)))).toEqual(
      [],
    );
  });

  it("Standard Webhooks renames its headers; the same spec written out in full is no change", () => {
    const standard = modelOf(spec(", scheme: standard-webhooks"));
    const spelled = modelOf(
      spec(
        ", scheme: standard-webhooks, timestamp: { in: header, name: webhook-timestamp }, deliveryId: { in: header, name: webhook-id }",
      ),
    );
    expect(compareModels(standard, spelled)).toEqual([]);
    const branded = modelOf(
      spec(
        ", scheme: standard-webhooks, timestamp: { in: header, name: svix-timestamp }, deliveryId: { in: header, name: svix-id }",
      ),
    );
    expect(squeeze(formatChanges(compareModels(standard, branded))).slice(0, -2)).toEqual([
      "BREAKING for implementers credentials.signer: signing time header webhook-timestamp -> header svix-timestamp (receivers verify the new form)",
      "BREAKING for implementers credentials.signer: delivery id header webhook-id -> header svix-id (receivers verify the new form)",
    ]);
  });
});

/** The model of a spec written out as one api.yaml. */
function modelOfText(text: string) {
  const dir = tempDir("apigen-diff-text-");
  try {
    writeFileSync(join(dir, "api.yaml"), text);
    return loadModel(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("a second 2xx without a body (emptyStatus)", () => {
  const withEmpty = (empty: string) =>
    modelOfText(`api: { name: diff-empty, title: Diff Empty, version: 1.0.0 }
types:
  Playing: { fields: { is_playing: boolean } }
endpoints:
  player.current:
    method: GET
    path: /me/player/currently-playing
    response: { status: 200, body: Playing${empty} }
`);

  it("added breaks callers (the call may resolve to undefined); removed does not", () => {
    const without = withEmpty("");
    const with204 = withEmpty(", emptyStatus: 204");
    expect(squeeze(formatChanges(compareModels(without, with204))).slice(0, -2)).toEqual([
      "BREAKING for callers endpoints.player.current.response: answers 204 without a body (the call may resolve to undefined)",
    ]);
    expect(squeeze(formatChanges(compareModels(with204, without))).slice(0, -2)).toEqual([
      "minor endpoints.player.current.response: no longer answers 204 without a body",
    ]);
  });
});

describe("webhook events", () => {
  const webhooksBase = loadModel(join(fixtures, "webhooks-base"));
  const webhookCases: [string, string[], string][] = [
    [
      "webhook-event-added",
      ["minor webhooks.events.star: webhook event added (a handler may be added)"],
      "minor",
    ],
    [
      "webhook-event-removed",
      [
        "BREAKING for implementers webhooks.events.ping: webhook event removed (its handler must go)",
      ],
      "major",
    ],
    [
      "webhook-payload-type-changed",
      [
        "BREAKING for implementers webhooks.events.issues.payload: type IssuesEvent -> PingEvent (implementers read it)",
      ],
      "major",
    ],
    [
      "webhooks-untyped",
      [
        "BREAKING for implementers webhooks: deliveries now take one untyped payload for all (the webhook route's options change)",
        "BREAKING for implementers webhooks.events.issues: webhook event removed (its handler must go)",
        "BREAKING for implementers webhooks.events.ping: webhook event removed (its handler must go)",
      ],
      "major",
    ],
    [
      "webhook-payload-field-removed",
      ["BREAKING for implementers types.IssuesEvent.number: field removed (implementers read it)"],
      "major",
    ],
  ];

  it.each(webhookCases)("%s", (name, lines, bump) => {
    const changes = compareModels(webhooksBase, loadModel(join(fixtures, name)));
    expect(semverBump(changes)).toBe(bump);
    const printed = squeeze(formatChanges(changes));
    expect(printed.slice(0, -2)).toEqual(lines);
  });

  it("declared delivery headers: one removed, retyped or made optional breaks implementers, one added does not", () => {
    const withHeaders = (headers: string) =>
      modelOfText(`api: { name: diff-headers, title: Diff Headers, version: 1.0.0 }
credentials:
  signer: { in: signature, header: X-Signature }
webhooks:
  auth: [signer]
  payload: unknown
${headers}`);
    const before = withHeaders(
      "  headers:\n    X-Delivery: { type: string, required: true }\n    X-Hook-ID: integer",
    );
    const after = withHeaders(
      "  headers:\n    X-Delivery: string\n    X-Attempt: { type: integer, required: true }",
    );
    expect(squeeze(formatChanges(compareModels(before, after))).slice(0, -2)).toEqual([
      "BREAKING for implementers webhooks.headers.X-Delivery: required -> optional (implementers read it)",
      "BREAKING for implementers webhooks.headers.X-Hook-ID: field removed (implementers read it)",
      "minor webhooks.headers.X-Attempt: required field added (implementers read it)",
    ]);
    expect(compareModels(withHeaders(""), before).map((c) => c.level)).toEqual(["minor", "minor"]);
  });

  it("an answer added to an event, or a field of it required, breaks implementers (they write it)", () => {
    const answering = (success: string) =>
      modelOfText(`api: { name: diff-answers, title: Diff Answers, version: 1.0.0 }
credentials:
  signer: { in: signature, header: X-Signature }
types:
  Challenge: { fields: { challenge: { type: string, required: true } } }
webhooks:
  auth: [signer]
  eventField: type
  events:
    url_verification: { payload: Challenge${success} }
`);
    const before = answering("");
    const after = answering(
      ", success: { fields: { challenge: { type: string, required: true } } }",
    );
    expect(squeeze(formatChanges(compareModels(before, after))).slice(0, -2)).toEqual([
      "BREAKING for implementers webhooks.events.url_verification.success: added (object) (implementers write it)",
    ]);
    const more = answering(
      ", success: { fields: { challenge: { type: string, required: true }, ok: { type: boolean, required: true } } }",
    );
    expect(squeeze(formatChanges(compareModels(after, more))).slice(0, -2)).toEqual([
      "BREAKING for implementers webhooks.events.url_verification.success.ok: required field added (implementers write it)",
    ]);
  });

  it("finds nothing between a webhooks spec and itself", () => {
    expect(compareModels(webhooksBase, webhooksBase)).toEqual([]);
  });
});

describe("generic types", () => {
  const genericsBase = loadModel(join(fixtures, "generics-base"));

  it("a field added to List<T> is a change at each use, for whoever reads or writes that use", () => {
    const changes = compareModels(genericsBase, loadModel(join(fixtures, "generic-field-added")));
    expect(squeeze(formatChanges(changes)).slice(0, -2)).toEqual([
      "BREAKING for callers types.List<Order>.url: required field added (callers write it)",
      "minor types.List<Customer>.url: required field added (callers read it)",
    ]);
    expect(semverBump(changes)).toBe("major");
  });

  it("another number of type parameters breaks every use and the declaration", () => {
    const changes = compareModels(
      genericsBase,
      loadModel(join(fixtures, "generic-params-changed")),
    );
    expect(squeeze(formatChanges(changes)).slice(0, -2)).toEqual([
      "BREAKING for callers endpoints.customers.list.response: type List<Customer> -> List<Customer, string> (callers read it)",
      "BREAKING for callers types.Batch.orders: type List<Order> -> List<Order, string> (callers write it)",
      "BREAKING for callers types.List<T>: type parameters <T> -> <T, Cursor>",
    ]);
  });

  it("finds nothing between a spec with generic types and itself", () => {
    expect(compareModels(genericsBase, loadModel(join(fixtures, "generics-base")))).toEqual([]);
  });
});

describe("expandable fields", () => {
  const expandBase = loadModel(join(fixtures, "expand-base"));

  it("a field no longer expandable and an endpoint no longer taking expand break the callers who read them", () => {
    const changes = compareModels(expandBase, loadModel(join(fixtures, "expand-changed")));
    expect(squeeze(formatChanges(changes)).slice(0, -2)).toEqual([
      "BREAKING for callers endpoints.payments.get.expand: path charges.card removed",
      "BREAKING for callers endpoints.payments.create.expand: no longer expandable",
      "BREAKING for callers endpoints.payments.list.expand: path data.charges.card removed",
      "BREAKING for callers types.Charge.card: no longer expandable (callers read it)",
    ]);
    expect(semverBump(changes)).toBe("major");
  });

  it("the other way: new paths and a new expand are minor, a field becoming expandable narrows what callers read", () => {
    const changes = compareModels(loadModel(join(fixtures, "expand-changed")), expandBase);
    expect(squeeze(formatChanges(changes)).slice(0, -2)).toEqual([
      "BREAKING for callers types.Charge.card: became expandable (callers read it)",
      "minor endpoints.payments.get.expand: path charges.card added",
      "minor endpoints.payments.create.expand: expandable by body expand",
      "minor endpoints.payments.list.expand: path data.charges.card added",
    ]);
  });

  it("finds nothing between a spec with expandable fields and itself", () => {
    expect(compareModels(expandBase, loadModel(join(fixtures, "expand-base")))).toEqual([]);
  });
});

describe("deprecated endpoints", () => {
  const spec = (more: string) => `api: { name: a, title: A, version: 1.0.0 }
endpoints:
  orders.cancel: { method: POST, path: "/o/{id}/cancel", params: { id: string }, response: { status: 204 }${more} }
`;
  const { changes } = inlineSpecs("apigen-diff-deprecated-");

  it("an endpoint becoming deprecated is minor, and its link to more documentation nothing", () => {
    const more = ", externalDocs: { url: https://docs.example.com/cancel }";
    expect(changes(spec(""), spec(`, deprecated: true${more}`))).toEqual([
      "minor endpoints.orders.cancel: deprecated",
    ]);
    expect(changes(spec(", deprecated: true"), spec(""))).toEqual([
      "patch endpoints.orders.cancel: no longer deprecated",
    ]);
  });
});

describe("optional bodies", () => {
  const spec = (more: string) => `api: { name: a, title: A, version: 1.0.0 }
endpoints:
  notes.touch: { method: POST, path: /n, body: { fields: { text: string } }, response: { status: 204 }${more} }
`;
  const { changes } = inlineSpecs("apigen-diff-optional-body-");

  it("a body the call may leave out breaks no one; one it must send again breaks callers", () => {
    expect(changes(spec(""), spec(", bodyOptional: true"))).toEqual([
      "minor endpoints.notes.touch.body: may be left out",
    ]);
    expect(changes(spec(", bodyOptional: true"), spec(""))).toEqual([
      "BREAKING for callers endpoints.notes.touch.body: required (was optional)",
    ]);
  });
});

describe("who writes a field (readOnly, writeOnly)", () => {
  /** `Account` is sent by callers (accounts.create's body) and read by them (its answer). */
  const spec = (id: string, password: string) => `api: { name: a, title: A, version: 1.0.0 }
types:
  Account:
    fields:
      id: { type: string, required: true${id} }
      password: { type: string, required: true${password} }
endpoints:
  accounts.create: { method: POST, path: /a, body: Account, response: { status: 201, body: Account } }
`;
  const { changes } = inlineSpecs("apigen-diff-access-");
  const marked = spec(", readOnly: true", ", writeOnly: true");

  it.each([
    [
      "a field becoming readOnly leaves request bodies: callers who send it break",
      spec("", ""),
      spec(", readOnly: true", ""),
      [
        "BREAKING for callers types.Account.id: read and written -> readOnly (callers write it, callers read it)",
      ],
    ],
    [
      "a field becoming writeOnly leaves answers: callers who read it break",
      spec("", ""),
      spec("", ", writeOnly: true"),
      [
        "BREAKING for callers types.Account.password: read and written -> writeOnly (callers write it, callers read it)",
      ],
    ],
    [
      "a required readOnly field that callers now write must be sent",
      marked,
      spec("", ", writeOnly: true"),
      [
        "BREAKING for callers types.Account.id: readOnly -> read and written (callers write it, callers read it)",
      ],
    ],
    [
      "a writeOnly field that answers now carry breaks no one",
      marked,
      spec(", readOnly: true", ""),
      [
        "minor types.Account.password: writeOnly -> read and written (callers write it, callers read it)",
      ],
    ],
    [
      "a readOnly field becoming optional reaches readers only",
      marked,
      marked.replace("id: { type: string, required: true", "id: { type: string"),
      ["BREAKING for callers types.Account.id: required -> optional (callers read it)"],
    ],
  ])("%s", (_name, before, after, lines) => {
    expect(changes(before, after)).toEqual(lines);
  });

  it("finds nothing between a spec with marked fields and itself, nor reports the views", () => {
    expect(changes(marked, marked)).toEqual(["no changes"]);
  });
});

describe("model diff of unions", () => {
  /** A spec whose response is `Method` (read by callers) and whose body holds `Ref` (written by callers). */
  const spec = (
    method: string,
    ref = "string | Customer",
  ) => `api: { name: u, title: U, version: 1.0.0 }
types:
  Card: { fields: { last4: string } }
  Sepa: { fields: { iban: string } }
  Cash: { fields: { note: string } }
  Customer: { fields: { id: string } }
  Label: { fields: { name: string } }
  Method:
    discriminator: type
${method}
  Create: { fields: { customer: ${JSON.stringify(ref)} } }
endpoints:
  methods.get: { method: GET, path: /m, response: { status: 200, body: Method } }
  orders.create: { method: POST, path: /o, body: Create, response: { status: 201 } }
`;
  const closed = "    union: { card: Card, sepa: Sepa }";
  const { changes } = inlineSpecs("apigen-diff-unions-");

  // A variant's type gains (or loses) the tag field with the union: listed under the type too.
  it.each([
    [
      "a variant added to a closed union breaks readers",
      spec("    union: { card: Card, sepa: Sepa, cash: Cash }"),
      [
        'BREAKING for callers types.Method: variant "cash" (Cash) added (callers read it)',
        "minor types.Cash.type: required field added (callers read it)",
      ],
    ],
    [
      "a variant added to an open union breaks no one (becoming open does)",
      spec("    union: { card: Card, sepa: Sepa, cash: Cash }\n    open: true"),
      [
        "BREAKING for callers types.Method: union became open (callers read it)",
        "minor types.Cash.type: required field added (callers read it)",
        'minor types.Method: variant "cash" (Cash) added (callers read it)',
      ],
    ],
    [
      "a variant removed from a union its callers only read breaks them through the variant only",
      spec("    union: { card: Card }"),
      [
        "BREAKING for callers types.Sepa.type: field removed (callers read it)",
        'minor types.Method: variant "sepa" (Sepa) removed (callers read it)',
      ],
    ],
    [
      "a tag that now names another type changes the type",
      spec("    union: { card: Card, sepa: Cash }"),
      [
        "BREAKING for callers types.Sepa.type: field removed (callers read it)",
        'BREAKING for callers types.Method: variant "sepa" Sepa -> Cash (callers read it)',
        "minor types.Cash.type: required field added (callers read it)",
      ],
    ],
    [
      "an untagged union that becomes one type changes the type",
      spec(closed, "string"),
      [
        "BREAKING for callers types.Create.customer: type string | Customer -> string (callers write it)",
      ],
    ],
  ])("%s", (_name, after, lines) => {
    expect(changes(spec(closed), after)).toEqual(lines);
  });

  it("an open union that gains a variant breaks no one", () => {
    const open = (more: string) =>
      spec(`    union: { card: Card, sepa: Sepa${more} }\n    open: true`);
    expect(changes(open(""), open(", cash: Cash"))).toEqual([
      "minor types.Cash.type: required field added (callers read it)",
      'minor types.Method: variant "cash" (Cash) added (callers read it)',
    ]);
  });

  it("untagged: a member added breaks readers, one removed breaks writers", () => {
    const before = spec(closed, "string | Customer | Label");
    expect(changes(before, spec(closed, "string | Customer"))).toEqual([
      "BREAKING for callers types.Create.customer: variant Label removed (callers write it)",
    ]);
    expect(changes(spec(closed, "string | Customer"), before)).toEqual([
      "minor types.Create.customer: variant Label added (callers write it)",
    ]);
  });
});

describe("model diff of streams", () => {
  /** A spec with a named-event stream (`events`) and a chat endpoint with a stream flag (`chat`). */
  const spec = (
    events: string,
    chat = "flag: stream, contentType: text/event-stream, body: Chunk",
  ) =>
    `api: { name: s, title: S, version: 1.0.0 }
types:
  Req: { fields: { stream: boolean, live: boolean } }
  Chunk: { fields: { text: string } }
  Other: { fields: { n: integer } }
endpoints:
  messages.stream:
    method: POST
    path: /m
    body: Req
    response:
      contentType: text/event-stream
${events}
  chat.create:
    method: POST
    path: /c
    body: Req
    response: { body: Chunk }
    streamResponse: { ${chat} }
`;
  const closed = "      events: { delta: Chunk, stop: Other }\n      open: false";
  const { model, changes } = inlineSpecs("apigen-diff-streams-");

  it.each([
    [
      "an event added to a closed stream breaks callers' exhaustive switches",
      spec("      events: { delta: Chunk, stop: Other, ping: Other }\n      open: false"),
      ["BREAKING for callers endpoints.messages.stream.response.events.ping: event added"],
    ],
    [
      "an event added to an open stream breaks no one (becoming open does)",
      spec("      events: { delta: Chunk, stop: Other, ping: Other }"),
      [
        "BREAKING for callers endpoints.messages.stream.response: stream became open",
        "minor endpoints.messages.stream.response.events.ping: event added",
      ],
    ],
    [
      "an event's data type changes as a type read by callers",
      spec("      events: { delta: Other, stop: Other }\n      open: false"),
      [
        "BREAKING for callers endpoints.messages.stream.response.events.delta: type Chunk -> Other (callers read it)",
      ],
    ],
    [
      "a flag renamed takes the overloads away; a terminator is noted",
      spec(closed, 'flag: live, contentType: text/event-stream, body: Chunk, terminator: "[DONE]"'),
      [
        "BREAKING for callers endpoints.chat.create.streamResponse: stream flag stream -> live",
        "minor endpoints.chat.create.streamResponse: terminator none -> [DONE]",
      ],
    ],
  ])("%s", (_name, after, lines) => {
    expect(changes(spec(closed), after)).toEqual(lines);
  });

  it("notes an error item declared, changed or taken away as minor", () => {
    const chat = "flag: stream, contentType: text/event-stream, body: Chunk";
    const field = spec(closed, `${chat}, error: { field: error }`);
    const event = spec(closed, `${chat}, error: { event: error }`);
    expect(changes(spec(closed), field)).toEqual([
      "minor endpoints.chat.create.streamResponse: error item none -> field error",
    ]);
    expect(changes(field, event)).toEqual([
      "minor endpoints.chat.create.streamResponse: error item field error -> event error",
    ]);
    expect(changes(event, spec(closed))).toEqual([
      "minor endpoints.chat.create.streamResponse: error item event error -> none",
    ]);
    expect(compareModels(model(field), model(field))).toEqual([]);
  });

  it("finds nothing between a streaming spec and itself", () => {
    expect(compareModels(model(spec(closed)), model(spec(closed)))).toEqual([]);
  });
});

describe("model diff of retried statuses", () => {
  const spec = (statuses: string) =>
    `api: { name: s, title: S, version: 1.0.0 }
errors:
  statuses:
${statuses}
endpoints:
  things.create: { method: POST, path: /things }
`;
  const { model, changes } = inlineSpecs("apigen-diff-statuses-");

  it("notes a status that becomes retried for every method, or stops being so, as minor", () => {
    const plain = "    429: { meaning: Slow down., retry: true }\n    503: { meaning: Down. }";
    const marked =
      "    429: { meaning: Slow down., notProcessed: true }\n    503: { meaning: Down. }";
    expect(changes(spec(plain), spec(marked))).toEqual([
      "minor errors.statuses.429: retried (a POST or PATCH with an idempotency key only) -> retried for every method (notProcessed)",
    ]);
    expect(changes(spec(marked), spec("    503: { meaning: Down., notProcessed: true }"))).toEqual([
      "minor errors.statuses.429: retried for every method (notProcessed) -> the client's default",
      "minor errors.statuses.503: the client's default -> retried for every method (notProcessed)",
    ]);
    expect(compareModels(model(spec(marked)), model(spec(marked)))).toEqual([]);
  });
});

describe("model diff of pagination", () => {
  /** A spec whose `customers.list` pages as `pagination` says (no line: it does not page). */
  const spec = (pagination: string, item = "Customer") =>
    `api: { name: s, title: S, version: 1.0.0 }
types:
  Customer: { fields: { id: { type: string, required: true } } }
  Other: { fields: { id: { type: integer, required: true } } }
  CustomerList: { fields: { data: { type: "${item}[]", required: true }, has_more: boolean, next: string } }
endpoints:
  customers.list:
    method: GET
    path: /v1/customers
    params:
      starting_after: { in: query, type: string }
      page_token: { in: query, type: string }
    response: { body: CustomerList }
${pagination}
`;
  const cursor =
    "    pagination: { style: cursor, items: data, param: starting_after, cursor: id, hasMore: has_more }";
  const { model, changes } = inlineSpecs("apigen-diff-paging-");

  it.each([
    [
      "a list that starts paging is minor",
      spec(""),
      spec(cursor),
      ["minor endpoints.customers.list.pagination: pages (cursor)"],
    ],
    [
      "a list that stops paging breaks callers' walks",
      spec(cursor),
      spec(""),
      ["BREAKING for callers endpoints.customers.list.pagination: no longer pages"],
    ],
    [
      "another way to the next page is minor: callers' code does not change",
      spec(cursor),
      spec("    pagination: { style: nextToken, items: data, param: page_token, token: next }"),
      [
        "minor endpoints.customers.list.pagination: style cursor, param starting_after, cursor id, hasMore has_more, items data -> style nextToken, param page_token, token next, items data",
      ],
    ],
  ])("%s", (_name, before, after, lines) => {
    expect(changes(before, after)).toEqual(lines);
  });

  it("compares the item type as a type callers read", () => {
    const lines = changes(spec(cursor), spec(cursor, "Other"));
    expect(lines).toContain(
      "BREAKING for callers endpoints.customers.list.pagination.items: type Customer -> Other (callers read it)",
    );
  });

  it("finds nothing between a paging spec and itself", () => {
    expect(compareModels(model(spec(cursor)), model(spec(cursor)))).toEqual([]);
  });
});

/**
 * Models of specs written inline (one api.yaml each, in folders removed after the describe
 * that calls this), and the change lines between two of them without the closing summary.
 */
function inlineSpecs(prefix: string) {
  const folders: string[] = [];
  afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const model = (text: string) => {
    const dir = tempDir(prefix);
    folders.push(dir);
    writeFileSync(join(dir, "api.yaml"), text);
    return loadModel(dir);
  };
  const changes = (before: string, after: string) =>
    squeeze(formatChanges(compareModels(model(before), model(after)))).slice(0, -2);
  return { model, changes };
}
