/**
 * An endpoint that answers a second 2xx without a body (`response.emptyStatus`): Spotify's
 * player answers 204 when nothing plays, Jira's issue edit 204 without returnIssue; both
 * hand-written trials of session 30 met it, and the call threw ResponseParseError on the 204.
 * The generated client resolves to undefined there (response validation on too), still
 * refuses an empty body on the success status, and the OpenAPI document and import carry it.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSpec } from "../generator/import/import.ts";
import { loadApiModel } from "../generator/pipeline.ts";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";

const spec = `api: { name: player, title: Player, version: 1.0.0 }
endpoints:
  player.current:
    method: GET
    path: /me/player/currently-playing
    response: { status: 200, body: Playing, emptyStatus: 204 }
types:
  Playing:
    fields:
      is_playing: { type: boolean, required: true }
`;

let dir: string;
let server: Server;
let baseUrl: string;
let answer: { status: number; body: string } = { status: 204, body: "" };
type Client = { player: { current(): Promise<unknown> } };
let pkg: { PlayerClient: new (o: object) => Client };
let validators: { responseValidators: unknown };

beforeAll(async () => {
  dir = tempDir("apigen-empty-status-");
  mkdirSync(join(dir, "spec"));
  writeFileSync(join(dir, "spec/api.yaml"), spec);
  await writeGenerated(join(dir, "spec"), join(dir, "pkg"));
  pkg = await import(pathToFileURL(join(dir, "pkg/src/index.ts")).href);
  validators = await import(pathToFileURL(join(dir, "pkg/src/validators.ts")).href);
  server = createServer((_req, res) => {
    res.writeHead(answer.status, answer.body ? { "content-type": "application/json" } : {});
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("a second 2xx answered without a body (emptyStatus)", () => {
  it("resolves to undefined on it, to the body on the success status, with response validation on", async () => {
    const client = new pkg.PlayerClient({
      baseUrl,
      maxRetries: 0,
      validateResponses: "throw",
      responseValidators: validators.responseValidators,
    });
    answer = { status: 204, body: "" };
    expect(await client.player.current()).toBeUndefined();
    answer = { status: 200, body: JSON.stringify({ is_playing: true }) };
    expect(await client.player.current()).toEqual({ is_playing: true });
    // the success status without its body is still a broken answer
    answer = { status: 200, body: "" };
    await expect(client.player.current()).rejects.toThrow(
      "player.current answered 200 with an empty body",
    );
  });

  it("types the call's result as possibly undefined", () => {
    const client = readFileSync(join(dir, "pkg/src/client.ts"), "utf8");
    expect(client).toMatch(/ApiPromise<Playing \| undefined>/);
  });

  it("is the 204 of the OpenAPI document, which import reads back", () => {
    const document = JSON.parse(readFileSync(join(dir, "pkg/openapi.json"), "utf8"));
    const responses = document.paths["/me/player/currently-playing"].get.responses;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(["200", "204"]));
    expect(responses["204"].content).toBeUndefined();
    const result = importSpec({
      input: join(dir, "pkg/openapi.json"),
      outSpec: join(dir, "again"),
      schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
    });
    const again = join(dir, "again");
    for (const file of result.files) {
      mkdirSync(join(again, file.path, ".."), { recursive: true });
      writeFileSync(join(again, file.path), file.text);
    }
    const model = loadApiModel({ specDir: again }).model;
    expect(model.endpoints[0]!.response.emptyStatus).toBe(204);
  });
});
