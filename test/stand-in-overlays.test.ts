/**
 * `mock` and `trigger` on an OpenAPI document read it as every build does (issue 31): the
 * overlays (`--overlay`, else the config's `overlays`) applied first, the config's `refRoot`
 * for a multi-file document's `$ref`s, and its `refMap` for those by URL. Each overlay here
 * adds what the stand-in or the trigger visibly uses: a path the stand-in then serves, a
 * webhook the trigger then sends.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DiagnosticsError } from "../generator/diagnostics/diagnostic.ts";
import { startMock } from "../generator/commands/mock-command.ts";
import { loadTriggerModel } from "../generator/commands/trigger-command.ts";
import { runCli, startMockCli, tempDir, type MockProcess } from "./helpers.ts";

const dir = tempDir("apigen-stand-in-overlays-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(path: string, text: string): string {
  const full = join(dir, path);
  mkdirSync(join(full, ".."), { recursive: true });
  writeFileSync(full, text);
  return full;
}

// A multi-file document whose schema lives beside its folder: only a refRoot reaches it.
file(
  "common/pet.yaml",
  "Pet:\n  type: object\n  required: [id]\n  properties:\n    id: { type: string }\n",
);
/** A document listing the Pets `petRef` names, with a webhook sending one when `webhook`. */
const petsDocument = (petRef: string, webhook = false) => `openapi: 3.1.0
info: { title: Pets, version: 1.0.0 }
paths:
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { type: array, items: { $ref: "${petRef}" } }
${
  webhook
    ? `webhooks:
  petAdded:
    post:
      requestBody:
        content:
          application/json:
            schema: { $ref: "${petRef}" }
      responses:
        "200": { description: ok }
`
    : ""
}`;
const doc = file("api/openapi.yaml", petsDocument("../common/pet.yaml#/Pet"));
// Adds a path the stand-in then serves, and a webhook the trigger then sends.
const overlay = file(
  "api/apigen.overlay.yaml",
  `overlay: 1.0.0
info: { title: extras, version: 1.0.0 }
actions:
  - target: $.paths
    update:
      /owners:
        get:
          operationId: listOwners
          tags: [owners]
          responses:
            "200":
              description: ok
              content:
                application/json:
                  schema: { type: array, items: { type: string } }
  - target: $
    update:
      webhooks:
        petAdded:
          post:
            requestBody:
              content:
                application/json:
                  schema: { $ref: "../common/pet.yaml#/Pet" }
            responses:
              "200": { description: ok }
`,
);
const refRoot = dir;
const config = file(
  "apigen.config.json",
  JSON.stringify({
    spec: "api/openapi.yaml",
    out: "out",
    refRoot: ".",
    overlays: ["api/apigen.overlay.yaml"],
  }),
);

/** Starts `apigen mock ARGS --port 0` from the bundle. */
const mockCli = (args: string[]): Promise<MockProcess> => startMockCli([...args, "--port", "0"]);

describe("mock --spec DOCUMENT applies overlays and the refRoot", () => {
  it("serves the path an overlay adds; the document alone has no such route", async () => {
    const log = () => undefined;
    const plain = await startMock({ specDir: doc, refRoot, port: 0, seed: 1 }, log);
    const overlaid = await startMock(
      { specDir: doc, refRoot, overlays: [overlay], port: 0, seed: 1 },
      log,
    );
    try {
      expect((await fetch(`${plain.running.url}/owners`)).status).toBe(404);
      const owners = await fetch(`${overlaid.running.url}/owners`);
      expect(owners.status).toBe(200);
      expect(Array.isArray(await owners.json())).toBe(true);
      const pets = await fetch(`${overlaid.running.url}/pets`);
      expect(pets.status).toBe(200);
      // the Pet of ../common/pet.yaml, reached through the refRoot
      for (const pet of (await pets.json()) as { id: unknown }[])
        expect(typeof pet.id).toBe("string");
    } finally {
      await plain.running.close();
      await overlaid.running.close();
    }
  });

  it("without the refRoot, the $ref out of the document's folder is refused", async () => {
    await expect(startMock({ specDir: doc, port: 0, seed: 1 }, () => undefined)).rejects.toThrow(
      DiagnosticsError,
    );
  });

  it("from the command line: --overlay, and the config's overlays and refRoot", async () => {
    const flagged = await mockCli(["--config", config, "--overlay", overlay]);
    try {
      expect((await fetch(`${flagged.url}/owners`)).status).toBe(200);
    } finally {
      await flagged.stop();
    }
    const configured = await mockCli(["--config", config]);
    try {
      expect((await fetch(`${configured.url}/owners`)).status).toBe(200);
      expect((await fetch(`${configured.url}/pets`)).status).toBe(200);
    } finally {
      await configured.stop();
    }
  });
});

describe("trigger --spec DOCUMENT applies overlays and the refRoot", () => {
  it("knows the webhook an overlay adds, with its $ref'd payload", async () => {
    const plain = await loadTriggerModel(doc, { refRoot });
    expect(plain.events).toEqual([]);
    const overlaid = await loadTriggerModel(doc, { refRoot, overlays: [overlay] });
    expect(overlaid.events.map((e) => e.name)).toEqual(["webhook"]);
  });

  it("from the command line, with the config's overlays: delivers the overlay's webhook", async () => {
    const received: { method: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        received.push({ method: req.method ?? "", body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const run = await runCli([
        "trigger",
        "webhook",
        "--config",
        config,
        "--url",
        `http://127.0.0.1:${port}/hooks`,
        "--secret",
        "s3cret",
      ]);
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(received).toHaveLength(1);
      expect(received[0]!.method).toBe("POST");
      expect(typeof (JSON.parse(received[0]!.body) as { id: unknown }).id).toBe("string");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("mock and trigger read a document's remote $refs from the copies refMap names", () => {
  // the same Pet, named by URL: `common/` is the local copy of what the URL names
  const remote = file(
    "remote/openapi.yaml",
    petsDocument("https://schemas.example.org/common/pet.yaml#/Pet", true),
  );
  const refMap = { "https://schemas.example.org/common/": join(dir, "common") };

  it("in process: the stand-in answers the Pet of the copy, and the trigger knows its webhook", async () => {
    await expect(
      startMock({ specDir: remote, port: 0, seed: 1 }, () => undefined),
    ).rejects.toMatchObject({ diagnostics: [{ code: "import-ref-remote" }] });
    const mock = await startMock({ specDir: remote, refMap, port: 0, seed: 1 }, () => undefined);
    try {
      const pets = await fetch(`${mock.running.url}/pets`);
      expect(pets.status).toBe(200);
      for (const pet of (await pets.json()) as { id: unknown }[])
        expect(typeof pet.id).toBe("string");
    } finally {
      await mock.running.close();
    }
    expect((await loadTriggerModel(remote, { refMap })).events.map((e) => e.name)).toEqual([
      "webhook",
    ]);
  });

  it("from the command line, with the config's refMap", async () => {
    const remoteConfig = file(
      "remote/apigen.config.json",
      JSON.stringify({
        spec: "openapi.yaml",
        out: "out",
        refMap: { "https://schemas.example.org/common/": "../common/" },
      }),
    );
    const mock = await mockCli(["--config", remoteConfig]);
    try {
      expect((await fetch(`${mock.url}/pets`)).status).toBe(200);
    } finally {
      await mock.stop();
    }
  });
});
