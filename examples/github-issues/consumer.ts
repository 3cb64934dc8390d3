/**
 * What a user of the generated GitHub package writes: a triage tool that lists a repository's
 * open bugs page by page, files and locks issues, renders Markdown, reads an issue only when it
 * changed, and receives GitHub's webhook deliveries. It imports the package as generated into
 * ./generated (`npm run generate -- --spec examples/github-issues/spec --out
 * examples/github-issues/generated`); a project that installs the package imports
 * `github-issues-api` and `github-issues-api/callbacks` instead.
 *
 * Only Web APIs (fetch, URL, Headers), so it runs on Node 18+, Deno, Bun and edge runtimes;
 * test/example-github.test.ts runs it against a stand-in for api.github.com.
 */
import {
  ErrorCode,
  errorCodeMeanings,
  GitHubApiError,
  GitHubClient,
  NotModified,
  type ApiErrorCode,
  type CreateIssueRequest,
  type Issue,
  type IssuesEvent,
  type LockIssueRequest,
} from "./generated/src/index.js";
import {
  createCallbackRouter,
  type CallbackRouter,
  type WebhookContext,
  type WebhookDeliveryHeaders,
} from "./generated/src/callbacks.js";

/**
 * The REST API version this code is written for; GitHub answers in it whatever its default.
 * The package sends the version its spec is written for (the same) in X-GitHub-Api-Version on
 * every request; naming it here keeps this code on it when a newer package sends another.
 */
export const apiVersion = "2022-11-28";

/** Where and as whom to connect. */
export interface ConnectOptions {
  /** Default `https://api.github.com`; a GitHub Enterprise Server's is `https://<host>/api/v3`. */
  baseUrl?: string;
  /** A token; without one only public reads work, at a lower rate limit. */
  token?: string;
  /** The fetch to send with; default the runtime's. */
  fetch?: typeof fetch;
}

/**
 * A client that pins the API version. The token is optional: the generated client sends it
 * where the spec lists the credential and leaves it out when it has none (public reads).
 * GitHub's `Accept: application/vnd.github+json` goes on every request, from the spec.
 */
export function connect(options: ConnectOptions = {}): GitHubClient {
  const { baseUrl = "https://api.github.com", token, fetch } = options;
  return new GitHubClient({
    baseUrl,
    // exactOptionalPropertyTypes: an option is left out, never set to undefined.
    ...(token === undefined ? {} : { token }),
    ...(fetch === undefined ? {} : { fetch }),
    apiVersion,
  });
}

/**
 * The links of a `Link` header by relation: `<https://api.github.com/repositories/1/issues?page=2>;
 * rel="next", <…?page=5>; rel="last"`. A URL may hold commas (`labels=bug,ui`), so the header is
 * read link by link rather than split on commas.
 */
export function parseLinkHeader(header: string | undefined): Map<string, URL> {
  const links = new Map<string, URL>();
  for (const [, target, params] of (header ?? "").matchAll(/<([^>]*)>((?:\s*;\s*[^;,<]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(params ?? "")?.[1];
    const url = target === undefined ? undefined : urlOf(target);
    if (!rel || !url) continue;
    for (const name of rel.trim().split(/\s+/)) links.set(name.toLowerCase(), url);
  }
  return links;
}

/** `text` as a URL, or undefined when it is none. */
function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * The page the `next` link points at, or undefined on the last page: for code that pages by
 * hand (the generated list walks the `next` link itself, `listOpenBugs`).
 */
export function nextPage(link: string | undefined): number | undefined {
  const page = parseLinkHeader(link).get("next")?.searchParams.get("page");
  const number = page === null || page === undefined ? NaN : Number(page);
  return Number.isInteger(number) && number > 0 ? number : undefined;
}

/** The names of an issue's labels: GitHub gives label objects, or a bare name for a label made on the fly. */
export function labelNames(issue: Issue): string[] {
  return issue.labels.map((label) => (typeof label === "string" ? label : label.name));
}

/** The labels as a line, each label object with its colour: `bug (#d73a4a), ui`. */
export function describeLabels(issue: Issue): string {
  return issue.labels
    .map((label) => (typeof label === "string" ? label : `${label.name} (#${label.color})`))
    .join(", ");
}

/** Whether a listed "issue" is a pull request: the issues list has both; a pull request carries `pull_request`. */
export function isPullRequest(issue: Issue): boolean {
  return issue.pull_request !== undefined;
}

/** What `listOpenBugs` found, with the rate limit as the last page left it. */
export interface BugList {
  bugs: Issue[];
  pages: number;
  /** `X-RateLimit-Remaining` of the last page; undefined when the server sent none. */
  rateLimitRemaining: number | undefined;
  /** `X-RateLimit-Reset` of the last page, as a date. */
  rateLimitReset: Date | undefined;
}

/**
 * Every open issue with all of `labels` (default `bug`), pull requests left out, page after
 * page as the `Link` header's `next` link leads (the client follows it, within api.github.com
 * only), until there is none or `maxPages` were read. A secondary rate limit (403 with
 * Retry-After) is waited out and retried by the client itself: these are GETs.
 */
export async function listOpenBugs(
  client: GitHubClient,
  owner: string,
  repo: string,
  options: { labels?: string[]; perPage?: number; maxPages?: number } = {},
): Promise<BugList> {
  const { labels = ["bug"], perPage = 100, maxPages = 10 } = options;
  const result: BugList = {
    bugs: [],
    pages: 0,
    rateLimitRemaining: undefined,
    rateLimitReset: undefined,
  };
  const list = client.issues.listForRepo(owner, repo, {
    state: "open",
    labels,
    per_page: perPage,
  });
  for await (const { items, headers } of list.pages()) {
    result.pages++;
    result.bugs.push(...items.filter((issue) => !isPullRequest(issue)));
    result.rateLimitRemaining = headers["X-RateLimit-Remaining"];
    const reset = headers["X-RateLimit-Reset"];
    result.rateLimitReset = reset === undefined ? undefined : new Date(reset * 1000);
    if (result.pages >= maxPages) break;
  }
  return result;
}

/** One problem of a refused request, as the error body's `errors` entry gives it. */
export interface Problem {
  field: string | undefined;
  code: ApiErrorCode | undefined;
  /** What the code means, for the codes GitHub documents. */
  meaning: string | undefined;
}

/** How a call GitHub refused went: what to show and what to quote to GitHub support. */
export interface Refusal {
  status: number;
  /** GitHub's own message ("Validation Failed", "Not Found"), apart from the client's summary. */
  serverMessage: string | undefined;
  /** `X-GitHub-Request-Id`, which GitHub support asks for. */
  requestId: string | undefined;
  problems: Problem[];
  /** Whether a field the request left out is required (`missing_field`). */
  missingField: boolean;
}

/** Whether `code` is one of the codes GitHub documents for 422 entries. */
function isKnownCode(code: ApiErrorCode | undefined): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(errorCodeMeanings, code);
}

/** A refusal read off a GitHubApiError: string codes, server message and request id. */
export function refusalOf(error: GitHubApiError): Refusal {
  const problems = error.errors.map((entry) => ({
    field: typeof entry.field === "string" ? entry.field : undefined,
    code: entry.code,
    meaning: isKnownCode(entry.code) ? errorCodeMeanings[entry.code] : undefined,
  }));
  return {
    status: error.status,
    serverMessage: error.serverMessage,
    requestId: error.requestId,
    problems,
    missingField: problems.some((p) => p.code === ErrorCode.missingField),
  };
}

/** A created issue, or why GitHub refused it (404: no such repository or no access; 422: invalid). */
export type CreateOutcome =
  | { ok: true; issue: Issue; location: string | undefined }
  | ({ ok: false } & Refusal);

/**
 * Files an issue. Labels may be given by name or as objects (`{ name: "needs-triage" }`), as
 * GitHub accepts both. A 404 or 422 comes back as a refusal to show; anything else is thrown.
 * Not retried on a 403 secondary rate limit: a POST that may have reached GitHub is never
 * sent twice (GitHub takes no idempotency key).
 */
export async function createIssue(
  client: GitHubClient,
  owner: string,
  repo: string,
  request: CreateIssueRequest,
): Promise<CreateOutcome> {
  try {
    const { data, headers } = await client.issues.create(owner, repo, request).withResponse();
    return { ok: true, issue: data, location: headers.Location };
  } catch (error) {
    if (error instanceof GitHubApiError && (error.status === 404 || error.status === 422))
      return { ok: false, ...refusalOf(error) };
    throw error;
  }
}

/** Locks an issue's conversation; GitHub answers 204, so there is nothing to return. */
export async function lockIssue(
  client: GitHubClient,
  owner: string,
  repo: string,
  issueNumber: number,
  reason: NonNullable<LockIssueRequest["lock_reason"]>,
): Promise<void> {
  await client.issues.lock(owner, repo, issueNumber, { lock_reason: reason });
}

/** Markdown rendered by GitHub as HTML (sent as text/plain, answered as text/html). */
export function renderMarkdown(client: GitHubClient, markdown: string): Promise<string> {
  return client.markdown.renderRaw(markdown);
}

/** An issue read with a conditional request: unchanged since `etag`, or changed with its new ETag. */
export type Conditional =
  | { changed: true; issue: Issue; etag: string | undefined }
  | { changed: false; etag: string | undefined };

/**
 * Reads an issue unless it is unchanged since `etag` (If-None-Match). GitHub answers 304 then,
 * which does not count against the rate limit; the spec says so (`notModified`), so the call
 * resolves to a `NotModified` carrying the 304's ETag instead of the issue.
 */
export async function getIssueIfChanged(
  client: GitHubClient,
  owner: string,
  repo: string,
  issueNumber: number,
  etag?: string,
): Promise<Conditional> {
  // exactOptionalPropertyTypes: an option is left out, never set to undefined.
  const options = etag === undefined ? {} : { ifNoneMatch: etag };
  const { data, headers } = await client.issues
    .get(owner, repo, issueNumber, options)
    .withResponse();
  if (data instanceof NotModified) return { changed: false, etag: data.etag ?? etag };
  return { changed: true, issue: data, etag: headers.ETag };
}

/** What the receiver makes of one delivery, handed to `onNote`. */
export type WebhookNote =
  | { event: "ping"; delivery: string; hookId: number; zen: string }
  | {
      event: "issues";
      delivery: string;
      /** The webhook that sent it (`X-GitHub-Hook-ID`). */
      hookId: number;
      action: IssuesEvent["action"];
      number: number;
      title: string;
      labels: string[];
      /** The label added or removed, for `labeled` and `unlabeled`. */
      label: string | undefined;
      repository: string;
      sender: string;
      /** What to do about it. */
      summary: string;
    };

/** A line about an issues delivery; `action` is an open enum, so new actions reach `default`. */
function summarize(payload: IssuesEvent): string {
  const { action, issue } = payload;
  switch (action) {
    case "opened":
      return `#${issue.number} opened: triage it (${describeLabels(issue) || "no labels"})`;
    case "labeled":
    case "unlabeled":
      return `#${issue.number} ${action} ${payload.label?.name ?? "?"}`;
    case "closed":
      return `#${issue.number} closed as ${issue.state_reason ?? "completed"}`;
    default:
      return `#${issue.number} ${action}`;
  }
}

/**
 * The delivery id GitHub puts on every delivery, for its redelivery page: the spec declares
 * it (`webhooks.headers`), so the router has checked it is there and hands it over typed.
 */
function deliveryOf(ctx: WebhookContext<WebhookDeliveryHeaders>): string {
  return ctx.deliveryHeaders["X-GitHub-Delivery"];
}

/**
 * The receiver of a repository webhook: a router that checks `X-Hub-Signature-256` against
 * any of `secrets` (rotation) over the raw body (the spec names GitHub's scheme:
 * `sha256=<hex>`), picks the handler by `X-GitHub-Event`, checks the declared
 * `X-GitHub-Delivery` and `X-GitHub-Hook-ID` headers (a delivery without them is refused, 400),
 * validates the payload against the event's type and only then calls the handler. `issues`
 * and `ping` are handled; `issue_comment` is in the spec without a handler here, so it is
 * accepted unread (200); an event the spec does not list is refused (400). Serve it with
 * `http.createServer(router.node)` or `router.fetch`.
 */
export function createWebhookReceiver(options: {
  secrets: readonly string[];
  onNote: (note: WebhookNote) => void | Promise<void>;
  /** Default `/github/webhooks`. */
  path?: string;
}): CallbackRouter {
  const { secrets, onNote, path = "/github/webhooks" } = options;
  return createCallbackRouter({
    signingSecrets: secrets,
    webhook: {
      path,
      handlers: {
        ping: (payload, ctx) =>
          onNote({
            event: "ping",
            delivery: deliveryOf(ctx),
            hookId: payload.hook_id,
            zen: payload.zen,
          }),
        issues: (payload, ctx) =>
          onNote({
            event: "issues",
            delivery: deliveryOf(ctx),
            hookId: ctx.deliveryHeaders["X-GitHub-Hook-ID"],
            action: payload.action,
            number: payload.issue.number,
            title: payload.issue.title,
            labels: labelNames(payload.issue),
            label: payload.label?.name,
            repository: payload.repository.full_name,
            sender: payload.sender.login,
            summary: summarize(payload),
          }),
      },
    },
  });
}
