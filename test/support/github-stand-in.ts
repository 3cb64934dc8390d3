/**
 * A stand-in for api.github.com on 127.0.0.1, for examples/github-issues: it answers the calls
 * the example's consumer makes the way GitHub does (Link pages, rate-limit headers, a 403
 * secondary rate limit with Retry-After, 422 ValidationError bodies with string codes, 304 for
 * a matching ETag, text/html for Markdown, 204 for a lock, X-GitHub-Request-Id on every answer),
 * and checks each request exactly: credentials, Accept, the API version, query strings and
 * bodies. A request it does not expect gets 400 and is listed in `problems`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const token = "ghp_standInToken0123456789";
export const owner = "octo";
export const repo = "hello";
/** The ETag of issue 7 as the stand-in answers it. */
export const etag7 = 'W/"7f3c0e"';

/** One request as the stand-in saw it. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** Milliseconds since the stand-in started. */
  at: number;
}

export interface StandIn {
  url: string;
  requests: Seen[];
  /** What was wrong with requests it did not expect; empty when every request was right. */
  problems: string[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
type Answer = { status: number; headers?: Record<string, string>; body?: string | Json | Json[] };

const user = (login: string, id: number): Json => ({
  login,
  id,
  node_id: `U_${id}`,
  avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
  html_url: `https://github.com/${login}`,
  type: "User",
  site_admin: false,
});

/** A label object as GitHub gives it. */
export const label = (name: string, color: string, id = name.length * 1000): Json => ({
  id,
  node_id: `LA_${id}`,
  url: `https://api.github.com/repos/${owner}/${repo}/labels/${encodeURIComponent(name)}`,
  name,
  description: null,
  color,
  default: name === "bug",
});

/** An issue as GitHub gives it; `labels` mixes objects and bare names where asked. */
export function issue(number: number, title: string, labels: unknown[], extra: Json = {}): Json {
  return {
    id: 1_000_000 + number,
    node_id: `I_${number}`,
    url: `https://api.github.com/repos/${owner}/${repo}/issues/${number}`,
    html_url: `https://github.com/${owner}/${repo}/issues/${number}`,
    number,
    state: "open",
    state_reason: null,
    title,
    body: null,
    user: user("octocat", 1),
    labels,
    assignee: null,
    assignees: [],
    milestone: null,
    locked: false,
    active_lock_reason: null,
    comments: 0,
    closed_at: null,
    created_at: "2026-11-01T10:00:00Z",
    updated_at: "2026-11-02T10:00:00Z",
    author_association: "OWNER",
    ...extra,
  };
}

const bug = label("bug", "d73a4a");
const ui = label("ui", "1d76db");
const listQuery = "state=open&labels=bug,ui&per_page=2";
/** The pages of open issues labelled bug and ui, two per page; #2 is a pull request. */
const pages: Json[][] = [
  [
    issue(1, "Crash on start", [bug, ui]),
    issue(2, "Fix the crash", [bug, ui], { pull_request: { url: "https://…/pulls/2" } }),
  ],
  [issue(3, "Button misaligned", [bug, "ui"]), issue(4, "Dark mode contrast", [ui, bug])],
  [issue(5, "Tooltip flickers", [bug, ui])],
];

/** GitHub's Link header of page `n` of `pages`: it names the repository by id. */
function linkOf(url: string, n: number): string {
  const at = (page: number) =>
    `<${url}/repositories/1296269/issues?state=open&labels=bug%2Cui&per_page=2&page=${page}>`;
  const last = pages.length;
  const links = [];
  if (n < last) links.push(`${at(n + 1)}; rel="next"`, `${at(last)}; rel="last"`);
  if (n > 1) links.push(`${at(n - 1)}; rel="prev"`, `${at(1)}; rel="first"`);
  return links.join(", ");
}

const docs = "https://docs.github.com/rest";

/**
 * The answer to a page of `GET /repos/octo/hello/issues`, or of the `next` link GitHub gives
 * (`/repositories/1296269/issues`, its comma percent-encoded); the first try of page 2 hits
 * the secondary rate limit.
 */
function listPage(url: string, seen: Seen, tries: Map<number, number>): Answer {
  const query = (seen.url.split("?")[1] ?? "").replace(/%2C/g, ",");
  const n =
    query === listQuery
      ? 1
      : query.startsWith(`${listQuery}&page=`)
        ? Number(query.slice(listQuery.length + 6))
        : 0;
  if (!(n >= 1 && n <= pages.length)) return problem(`unexpected query string "${query}"`);
  const tried = (tries.get(n) ?? 0) + 1;
  tries.set(n, tried);
  if (n === 2 && tried === 1)
    return {
      status: 403,
      headers: { "Retry-After": "1", "X-RateLimit-Remaining": "4998" },
      body: {
        message:
          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        documentation_url: `${docs}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
      },
    };
  return {
    status: 200,
    headers: {
      Link: linkOf(url, n),
      ETag: `W/"page-${n}"`,
      "X-RateLimit-Limit": "5000",
      "X-RateLimit-Remaining": String(5000 - n),
      "X-RateLimit-Reset": "1795000000",
    },
    body: pages[n - 1]!,
  };
}

/** The answer to `POST /repos/octo/hello/issues`: 422 without a title, else 201 with labels as objects. */
function create(url: string, seen: Seen): Answer {
  if (!seen.headers["content-type"]?.startsWith("application/json"))
    return problem(`Content-Type ${seen.headers["content-type"]}`);
  const body = JSON.parse(seen.body) as Json;
  if (typeof body.title !== "string" || body.title === "")
    return {
      status: 422,
      body: {
        message: "Validation Failed",
        errors: [{ resource: "Issue", field: "title", code: "missing_field" }],
        documentation_url: `${docs}/issues/issues#create-an-issue`,
        status: "422",
      },
    };
  const labels = ((body.labels ?? []) as unknown[]).map((given, i) =>
    label(typeof given === "string" ? given : String((given as Json).name), "ededed", 7000 + i),
  );
  return {
    status: 201,
    headers: { Location: `${url}/repos/${owner}/${repo}/issues/6` },
    body: issue(6, body.title, labels, { body: body.body ?? null }),
  };
}

function problem(what: string): Answer {
  return { status: 400, body: { message: `stand-in: ${what}` } };
}

/** What a request must carry: a token or none, GitHub's JSON media type, the API version. */
function checkHeaders(seen: Seen, auth: boolean, accept: string | undefined): string | undefined {
  const h = seen.headers;
  if (auth && h.authorization !== `Bearer ${token}`) return `Authorization ${h.authorization}`;
  if (!auth && h.authorization !== undefined) return "a token was sent to a public read";
  if (accept !== undefined && h.accept !== accept) return `Accept ${h.accept}`;
  if (h["x-github-api-version"] !== "2022-11-28")
    return `X-GitHub-Api-Version ${h["x-github-api-version"]}`;
  return undefined;
}

/** The answer to one request, by method and path. */
function route(url: string, seen: Seen, tries: Map<number, number>): Answer {
  const path = seen.url.split("?")[0];
  const at = `${seen.method} ${path}`;
  const base = `/repos/${owner}/${repo}`;
  const json = "application/vnd.github+json";
  const wrong = (auth: boolean, accept?: string) => {
    const what = checkHeaders(seen, auth, accept);
    return what === undefined ? undefined : problem(`${at}: ${what}`);
  };
  switch (at) {
    case `GET ${base}/issues`:
    case "GET /repositories/1296269/issues":
      return wrong(true, json) ?? listPage(url, seen, tries);
    case `POST ${base}/issues`:
      return wrong(true, json) ?? create(url, seen);
    case `POST /repos/${owner}/gone/issues`:
      return (
        wrong(true, json) ?? {
          status: 404,
          body: {
            message: "Not Found",
            documentation_url: `${docs}/issues/issues#create-an-issue`,
            status: "404",
          },
        }
      );
    case `GET ${base}/issues/7`:
      if (seen.headers["if-none-match"] === etag7)
        return wrong(true, json) ?? { status: 304, headers: { ETag: etag7 } };
      return (
        wrong(true, json) ?? {
          status: 200,
          headers: { ETag: etag7 },
          body: issue(7, "Flaky test", [bug]),
        }
      );
    case `PUT ${base}/issues/7/lock`:
      if (seen.body !== '{"lock_reason":"resolved"}') return problem(`lock body ${seen.body}`);
      return wrong(true, json) ?? { status: 204 };
    case "POST /markdown/raw":
      if (seen.headers["content-type"] !== "text/plain")
        return problem(`Content-Type ${seen.headers["content-type"]}`);
      return (
        wrong(false, "text/html, application/json;q=0.5") ?? {
          status: 200,
          headers: { "Content-Type": "text/html;charset=utf-8" },
          body: `<p>${seen.body.replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")}</p>\n`,
        }
      );
    default:
      return problem(`no route ${at}`);
  }
}

/** The X-GitHub-Request-Id of the stand-in's `n`th answer (from 1). */
export function requestIdOf(n: number): string {
  return `C0DE:${n.toString(16).toUpperCase().padStart(4, "0")}:B1A5`;
}

/** Writes an answer with GitHub's request id and content type. */
function write(res: ServerResponse, answer: Answer, requestId: string): void {
  const headers: Record<string, string> = { "X-GitHub-Request-Id": requestId, ...answer.headers };
  let text = "";
  if (typeof answer.body === "string") text = answer.body;
  else if (answer.body !== undefined) {
    text = JSON.stringify(answer.body);
    headers["Content-Type"] = "application/json; charset=utf-8";
  }
  res.writeHead(answer.status, headers);
  res.end(text);
}

/** Starts the stand-in on 127.0.0.1 at a free port. */
export async function startGitHubStandIn(): Promise<StandIn> {
  const started = Date.now();
  const requests: Seen[] = [];
  const problems: string[] = [];
  const tries = new Map<number, number>();
  let url = "";
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const seen: Seen = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now() - started,
      };
      requests.push(seen);
      const answer = route(url, seen, tries);
      if (answer.status === 400) problems.push(JSON.stringify(answer.body));
      write(
        res,
        answer,
        `C0DE:${requests.length.toString(16).toUpperCase().padStart(4, "0")}:B1A5`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    problems,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
