/**
 * What test/example-github.test.ts needs besides the stand-in: examples/github-issues/consumer.ts
 * as the test sees it, and webhook payloads as GitHub delivers them.
 */
import { issue, label, owner, repo } from "./github-stand-in.ts";

/**
 * consumer.ts as this test uses it, loosely typed: it is loaded at run time from the package
 * generated in beforeAll (the repository's own type-check runs before that exists); its
 * precise types are checked by tsc below.
 */
export type Client = { readonly issues: unknown };
export type Note = Record<string, unknown>;
export interface Consumer {
  connect(options: { baseUrl: string; token?: string }): Client;
  parseLinkHeader(header: string | undefined): Map<string, URL>;
  nextPage(link: string | undefined): number | undefined;
  listOpenBugs(
    client: Client,
    owner: string,
    repo: string,
    options: { labels?: string[]; perPage?: number },
  ): Promise<{
    bugs: Array<{ number: number; labels: unknown[] }>;
    pages: number;
    rateLimitRemaining: number | undefined;
    rateLimitReset: Date | undefined;
  }>;
  labelNames(issue: unknown): string[];
  describeLabels(issue: unknown): string;
  createIssue(client: Client, owner: string, repo: string, request: unknown): Promise<Note>;
  lockIssue(
    client: Client,
    owner: string,
    repo: string,
    n: number,
    reason: string,
  ): Promise<unknown>;
  renderMarkdown(client: Client, markdown: string): Promise<string>;
  getIssueIfChanged(
    client: Client,
    owner: string,
    repo: string,
    n: number,
    etag?: string,
  ): Promise<Note>;
  createWebhookReceiver(options: { secrets: readonly string[]; onNote: (note: Note) => void }): {
    node: (req: never, res: never) => void;
    fetch(request: Request): Promise<Response>;
  };
}

/** The repository and sender of the deliveries. */
export const repository = {
  id: 1296269,
  node_id: "R_1",
  name: repo,
  full_name: `${owner}/${repo}`,
  private: false,
  owner: {
    login: owner,
    id: 2,
    node_id: "U_2",
    avatar_url: "https://a.test/2",
    html_url: "https://github.com/octo",
    type: "Organization",
    site_admin: false,
  },
  html_url: `https://github.com/${owner}/${repo}`,
};
export const sender = { ...repository.owner, login: "hubot", id: 3, type: "User" };
export const opened = {
  action: "opened",
  issue: issue(12, "Login fails", [label("bug", "d73a4a"), "ui"]),
  repository,
  sender,
};

/** An issue_comment delivery's comment. */
export const comment = {
  id: 1,
  node_id: "IC_1",
  html_url: "https://github.com/octo/hello/issues/12#c1",
  body: "Me too",
  user: sender,
  created_at: "2026-11-24T00:00:00Z",
  updated_at: "2026-11-24T00:00:00Z",
};
