/**
 * Hostile values a caller hands the client (issue 30, items 5 and 9), as data for the third
 * property of test/fuzz/client.fuzz.test.ts: path parameters, query values, header
 * parameters, headers of the client and of the call, idempotency keys and credentials made of
 * dot segments, separators, percent escapes, line breaks, control characters, Latin-1,
 * characters above U+00FF and lone surrogates. `expectedProblems` says, by the documented
 * rules (docs/client.md, "Paths and header values"), where a call must be refused before
 * anything is sent; every other call must arrive with the template's segments and every value
 * as it was given.
 */
import fc from "fast-check";

/** Pieces that have broken a URL path or a header somewhere, and plain ones. */
const pieces = [
  ".",
  "..",
  "",
  "%2e",
  "%2E%2E",
  ".%2e",
  "/",
  "\\",
  "?",
  "#",
  "%",
  "%25",
  "%2f",
  ";",
  "&",
  "=",
  "+",
  " ",
  "\t",
  "a",
  "Z9",
  "é",
  "ÿ",
  "\u0085",
  "\u00a0",
  "Ā",
  "🙂",
  "\u2028",
  "\ud800",
  "\udc00",
  "\r",
  "\n",
  "\r\n",
  "\0",
  "\u0001",
  "\u001f",
  "\u007f",
];

/** Any UTF-16 code unit, lone surrogates included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

/** A value made of hostile pieces, or of random code units. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...pieces) },
  {
    weight: 4,
    arbitrary: fc.array(fc.constantFrom(...pieces), { maxLength: 5 }).map((a) => a.join("")),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...pieces), anyUnit), { maxLength: 6 })
      .map((a) => a.join("")),
  },
);

/**
 * Pieces every place takes (a path segment, a query value, a header value), though they look
 * like separators, escapes or dot segments: joined, at least one, they must arrive as given.
 */
const sendablePieces = [
  "%2e",
  "%2E%2E",
  ".%2e",
  "...",
  "/",
  "\\",
  "?",
  "#",
  "%",
  "%25",
  "%2f",
  ";",
  "&",
  "=",
  "+",
  " ",
  "\t",
  "a",
  "Z9",
  "é",
  "ÿ",
  "\u0085",
  "\u00a0",
];

/** A value the client must send as it is (the other half of the property). */
const sendableText: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...sendablePieces), { minLength: 1, maxLength: 4 })
  .map((a) => a.join(""));

/**
 * A value of a case: mostly one the client must send, sometimes a hostile one, so that about
 * half of the calls are sent (and their arrival checked) and half refused.
 */
const caseText = fc.oneof(
  { weight: 6, arbitrary: sendableText },
  { weight: 1, arbitrary: hostileText },
);

/** A header name of the call or the client: mostly a token, sometimes not. */
const headerName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("x-team", "X-Trace-Id", "x_odd.name~1") },
  { weight: 1, arbitrary: hostileText.map((text) => `x-${text}`) },
);

/** The endpoints of test/fixtures/features/params-and-credentials a case calls. */
export type RequestEndpoint = "list" | "create" | "charge" | "account";

export interface RequestCase {
  endpoint: RequestEndpoint;
  /** The base URL's path prefix. */
  prefix: "" | "/api" | "/api/v1";
  /** Path parameters (issues.list and issues.create). */
  owner: string;
  repo: string;
  /** issues.list: query values (`state`, repeat style) and the If-None-Match header parameter. */
  state: string[] | undefined;
  ifNoneMatch: string | undefined;
  /** charges.create: the required Stripe-Account header parameter. */
  stripeAccount: string;
  /** Credentials; each carries a marker no error or log line may show. */
  token: string;
  tokenFunction: boolean;
  apiKey: string;
  username: string;
  password: string;
  /** Headers of the call and of the client. */
  callHeader: [string, string] | undefined;
  clientHeader: [string, string] | undefined;
  idempotencyKey: string | undefined;
}

/** The markers the credentials start with: none may show in an error or a log line. */
export const secretMarkers = ["ghp_SECRET_", "sk_SECRET_", "pw_SECRET_"];

export const requestCase: fc.Arbitrary<RequestCase> = fc.record({
  endpoint: fc.constantFrom<RequestEndpoint>("list", "create", "charge", "account"),
  prefix: fc.constantFrom<RequestCase["prefix"]>("", "/api", "/api/v1"),
  owner: caseText,
  repo: caseText,
  state: fc.option(fc.array(caseText, { maxLength: 3 }), { nil: undefined }),
  ifNoneMatch: fc.option(caseText, { nil: undefined }),
  stripeAccount: caseText,
  token: caseText.map((t) => `${secretMarkers[0]}${t}`),
  tokenFunction: fc.boolean(),
  apiKey: caseText.map((t) => `${secretMarkers[1]}${t}`),
  username: caseText,
  password: caseText.map((t) => `${secretMarkers[2]}${t}`),
  callHeader: fc.option(fc.tuple(headerName, caseText), { nil: undefined }),
  clientHeader: fc.option(fc.tuple(headerName, caseText), { nil: undefined }),
  idempotencyKey: fc.option(caseText, { nil: undefined }),
});

const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const headerText = /^[\t\x20-\x7e\x80-\xff]*$/;
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether fetch sends the value as a header, as undici does (the reference of the rule). */
export const sendableHeader = (value: string): boolean => headerText.test(value);

/** The value fetch sends: leading and trailing tabs and spaces removed. */
export const asSent = (value: string): string => value.replace(/^[\t ]+|[\t ]+$/g, "");

/** `params.owner` or `params["If-None-Match"]`, as the validators write a field's path. */
const param = (name: string) =>
  /^[A-Za-z_$][\w$]*$/.test(name) ? `params.${name}` : `params[${JSON.stringify(name)}]`;

/**
 * Every place the call must be refused for, with the error's field (or `missing:<option>` for a
 * MissingCredentialError), by the documented rules. Empty: the call must arrive. The client
 * reports the first stage's problems; the test checks that what it reports is among these.
 */
export function expectedProblems(c: RequestCase): Set<string> {
  const out = new Set<string>();
  const { endpoint } = c;
  const headerValue = (at: string, value: string) => {
    if (!sendableHeader(value)) out.add(at);
  };
  if (endpoint === "list" || endpoint === "create") {
    for (const [name, value] of [
      ["owner", c.owner],
      ["repo", c.repo],
    ] as const)
      if (value === "" || value === "." || value === ".." || loneSurrogate.test(value))
        out.add(param(name));
  }
  if (endpoint === "list") {
    if (c.state?.some((s) => loneSurrogate.test(s))) out.add(param("state"));
    if (c.ifNoneMatch !== undefined) headerValue(param("If-None-Match"), c.ifNoneMatch);
  }
  if (endpoint === "charge") {
    headerValue(param("Stripe-Account"), c.stripeAccount);
    if (loneSurrogate.test(c.apiKey)) out.add("apiKey");
  }
  if (endpoint === "list" || endpoint === "create") headerValue("token", `Bearer ${c.token}`);
  if (endpoint === "account" && c.username.includes(":")) out.add("basic");
  const callName = c.callHeader?.[0].toLowerCase();
  for (const [header, at] of [
    [c.callHeader, "options.headers"],
    [c.clientHeader, "headers"],
  ] as const) {
    if (!header) continue;
    const name = header[0].toLowerCase();
    // The call's own header replaces the client's of the same name.
    if (at === "headers" && name === callName) continue;
    // A header the client sets itself (a credential's) replaces the caller's.
    if (name === "authorization" || name === "idempotency-key") continue;
    if (!token.test(name) || !sendableHeader(header[1])) out.add(`${at}[${JSON.stringify(name)}]`);
  }
  if (c.idempotencyKey !== undefined) headerValue("options.idempotencyKey", c.idempotencyKey);
  return out;
}

/** The path segments a call that is sent must arrive with, each decoded, after the prefix. */
export function expectedSegments(c: RequestCase): string[] {
  switch (c.endpoint) {
    case "list":
    case "create":
      return ["repos", c.owner, c.repo, "issues"];
    case "charge":
      return ["v1", "charges"];
    case "account":
      return ["account"];
  }
}
