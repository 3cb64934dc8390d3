/**
 * Stand-ins on 127.0.0.1 for the real APIs test/import-real-apis.test.ts imports (GitHub,
 * Discord, Figma, the Petstore): each answers the few routes its consumer file calls
 * (test/fixtures/import/consumers/*.ts) the way the real service does, checks the
 * credential the document says the route takes, and records every request.
 */
import type { ServerResponse } from "node:http";
import { TestServer, type RecordedRequest } from "./test-server.ts";

/** One route: a method and a path pattern, and what it answers. */
interface Route {
  method: string;
  path: RegExp;
  answer: (request: RecordedRequest, url: URL, base: string) => Answer;
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The stand-ins by API, as the test names them. */
export const standIns = {
  GitHub: githubRoutes,
  Discord: discordRoutes,
  Figma: figmaRoutes,
  Petstore: petstoreRoutes,
} as const;

/** Starts a server that answers `routes`, and 404 with the route named to anything else. */
export async function startStandIn(routes: readonly Route[]): Promise<TestServer> {
  const server = await TestServer.start();
  server.respond((request, response) => {
    const url = new URL(request.url, server.url);
    const route = routes.find((r) => r.method === request.method && r.path.test(url.pathname));
    const answer = route
      ? route.answer(request, url, server.url)
      : { status: 404, body: { message: `no stand-in route ${request.method} ${url.pathname}` } };
    send(response, answer);
  });
  return server;
}

function send(response: ServerResponse, answer: Answer): void {
  const body = answer.body === undefined ? "" : JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    ...(body ? { "content-type": "application/json; charset=utf-8" } : {}),
    ...answer.headers,
  });
  response.end(body);
}

const refused = (message: string): Answer => ({ status: 401, body: { message } });

/** api.github.com: a repository, a missing one, and five issues two to a page with Link headers. */
function githubRoutes(): Route[] {
  const token = (r: RecordedRequest) => r.headers.authorization === "Bearer ghp_stand_in";
  const issues = [1, 2, 3, 4, 5].map((number) => ({
    id: 1000 + number,
    number,
    title: `Issue ${number}`,
    state: "open",
    url: `https://api.github.com/repos/octo-org/hello-world/issues/${number}`,
  }));
  return [
    {
      method: "GET",
      path: /^\/repos\/octo-org\/hello-world$/,
      answer: (r) =>
        token(r)
          ? {
              status: 200,
              body: {
                id: 1296269,
                name: "hello-world",
                full_name: "octo-org/hello-world",
                stargazers_count: 80,
              },
            }
          : refused("Requires authentication"),
    },
    {
      method: "GET",
      path: /^\/repos\/octo-org\/hello-world\/issues$/,
      answer: (r, url, base) => {
        if (!token(r)) return refused("Requires authentication");
        const perPage = Number(url.searchParams.get("per_page") ?? 30);
        const page = Number(url.searchParams.get("page") ?? 1);
        const last = Math.ceil(issues.length / perPage);
        const at = (n: number) => {
          const next = new URL(url.pathname, base);
          for (const [key, value] of url.searchParams)
            if (key !== "page") next.searchParams.set(key, value);
          next.searchParams.set("page", String(n));
          return `<${next.href}>`;
        };
        const links = [
          ...(page < last ? [`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`] : []),
          ...(page > 1 ? [`${at(page - 1)}; rel="prev"`, `${at(1)}; rel="first"`] : []),
        ];
        return {
          status: 200,
          body: issues.slice((page - 1) * perPage, page * perPage),
          headers: links.length ? { link: links.join(", ") } : {},
        };
      },
    },
    {
      method: "GET",
      path: /^\/repos\/octo-org\/[^/]+$/,
      answer: () => ({
        status: 404,
        body: {
          message: "Not Found",
          documentation_url: "https://docs.github.com/rest/repos/repos#get-a-repository",
        },
      }),
    },
  ];
}

/** discord.com/api/v10: the bot's user, a channel's recent messages, and sending one. */
function discordRoutes(): Route[] {
  const bot = (r: RecordedRequest) => r.headers.authorization === "Bot stand-in-token";
  const message = (id: string, content: string) => ({
    id,
    channel_id: "100200300",
    content,
    type: 0,
  });
  return [
    {
      method: "GET",
      path: /^\/users\/@me$/,
      answer: (r) =>
        bot(r)
          ? {
              status: 200,
              body: { id: "80351110224678912", username: "Nelly", discriminator: "1337" },
            }
          : refused("401: Unauthorized"),
    },
    {
      method: "GET",
      path: /^\/channels\/100200300\/messages$/,
      answer: (r, url) =>
        bot(r)
          ? {
              status: 200,
              body: [message("1", "first"), message("2", "second")].slice(
                0,
                Number(url.searchParams.get("limit") ?? 50),
              ),
            }
          : refused("401: Unauthorized"),
    },
    {
      method: "POST",
      path: /^\/channels\/100200300\/messages$/,
      answer: (r) =>
        bot(r)
          ? { status: 200, body: message("3", (JSON.parse(r.body) as { content: string }).content) }
          : refused("401: Unauthorized"),
    },
  ];
}

/** api.figma.com: the token's user, and a file at depth 1. */
function figmaRoutes(): Route[] {
  const token = (r: RecordedRequest) => r.headers["x-figma-token"] === "figd_stand_in";
  return [
    {
      method: "GET",
      path: /^\/v1\/me$/,
      answer: (r) =>
        token(r)
          ? {
              status: 200,
              body: {
                id: "1",
                handle: "Ada",
                img_url: "https://example.com/ada.png",
                email: "ada@example.com",
              },
            }
          : { status: 403, body: { status: 403, err: "Invalid token" } },
    },
    {
      method: "GET",
      path: /^\/v1\/files\/FILEKEY123$/,
      answer: (r, url) =>
        token(r) && url.searchParams.get("depth") === "1"
          ? {
              status: 200,
              body: {
                name: "Design system",
                role: "viewer",
                lastModified: "2026-11-01T00:00:00Z",
                editorType: "figma",
                version: "1",
                document: { id: "0:0", name: "Document", type: "DOCUMENT", children: [] },
                components: {},
                componentSets: {},
                schemaVersion: 0,
                styles: {},
              },
            }
          : { status: 403, body: { status: 403, err: "Invalid token" } },
    },
  ];
}

/** petstore3.swagger.io/api/v3: find by status, add a pet, get one by id. */
function petstoreRoutes(): Route[] {
  const oauth = (r: RecordedRequest) => r.headers.authorization === "Bearer oauth-stand-in";
  const pet = (id: number, name: string, status: string) => ({ id, name, photoUrls: [], status });
  return [
    {
      method: "GET",
      path: /^\/pet\/findByStatus$/,
      answer: (r, url) =>
        oauth(r)
          ? {
              status: 200,
              body: [pet(1, "Rex", "available"), pet(2, "Tom", "pending")].filter((p) =>
                url.searchParams.getAll("status").includes(p.status),
              ),
            }
          : refused("unauthorized"),
    },
    {
      method: "POST",
      path: /^\/pet$/,
      // The real Petstore answers the pet; the document shows no success response.
      answer: (r) =>
        oauth(r)
          ? { status: 200, body: { id: 10, ...JSON.parse(r.body) } }
          : refused("unauthorized"),
    },
    {
      method: "GET",
      path: /^\/pet\/10$/,
      answer: (r) =>
        r.headers.api_key === "special-key"
          ? { status: 200, body: pet(10, "doggie", "pending") }
          : refused("unauthorized"),
    },
  ];
}
