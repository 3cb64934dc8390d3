/**
 * Emits the hand-written runtime (generator/runtime/*.ts, real type-checked files) into
 * `src/runtime/` of the package, under the generated-file banner.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { hasClientCredentials } from "../ir/build-oauth.ts";
import type { ApiModel, TypeNode } from "../ir/model.ts";
import { childTypes } from "../ir/walk.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { lineComment } from "./shared/escape.ts";
import type { OutputName } from "./shared/outputs.ts";

const runtimeDir = fileURLToPath(new URL("../runtime/", import.meta.url));

/**
 * Runtime modules every package gets, by file name (`unions.ts` only a package whose model
 * has a union or an open event stream, `client/pagination.ts` only one with a paged endpoint,
 * `client/stream.ts` and the three files it reads with only one with a streaming endpoint, `client/conditional.ts` only one with
 * an endpoint that answers 304 Not Modified, `client/oauth.ts` only one with an OAuth
 * credential the client can fetch its own token for, `client/environments.ts` only one whose
 * spec gives an environment's address, `client/basic.ts` only one with a basic credential
 * of which the spec fixes a half).
 */
export const runtimeModules = [
  "validate.ts",
  "validator-data.ts",
  "standard-schema.ts",
  "unions.ts",
  "client/brand.ts",
  "client/errors.ts",
  "client/redact.ts",
  "client/retry.ts",
  "client/response.ts",
  "client/body.ts",
  "client/api-promise.ts",
  "client/decode.ts",
  "client/encode.ts",
  "client/redirect.ts",
  "client/timeout.ts",
  "client/params.ts",
  "client/operation.ts",
  "client/api-requests.ts",
  "client/conditional.ts",
  "client/sse-parser.ts",
  "client/json-lines.ts",
  "client/stream-reader.ts",
  "client/stream.ts",
  "client/hooks.ts",
  "client/oauth.ts",
  "client/environments.ts",
  "client/basic.ts",
  "client/features.ts",
  "client/core.ts",
  "client/browser.ts",
  "client/pagination.ts",
  "client/expand.ts",
  "client/response-validation.ts",
  "http/types.ts",
  "http/body.ts",
  "http/target.ts",
  "http/handle.ts",
  "http/node.ts",
  "http/fetch.ts",
  "callbacks/base64.ts",
  "callbacks/schemes.ts",
  "callbacks/body.ts",
  "callbacks/form.ts",
  "callbacks/failure.ts",
  "callbacks/signature.ts",
  "callbacks/replay.ts",
  "callbacks/routes.ts",
  "callbacks/types.ts",
  "callbacks/webhook.ts",
  "callbacks/core.ts",
  "callbacks/node-adapter.ts",
  "callbacks/fetch-adapter.ts",
  "callbacks/router.ts",
  "testing/shape.ts",
  "testing/table.ts",
  "testing/sample.ts",
  "testing/answers.ts",
  "testing/request.ts",
  "testing/memory.ts",
  "testing/prefer.ts",
  "testing/expand.ts",
  "testing/paging.ts",
  "testing/token.ts",
  "testing/core.ts",
  "testing/deliver.ts",
  "testing/stand-in.ts",
  "testing/node.ts",
  "msw/handlers.ts",
  "tanstack/query.ts",
] as const;

/**
 * Files of one folder that another output needs too: the stand-in's deliveries sign with the
 * callbacks' signer (one implementation) and redact with the client's redactor.
 */
const fileOutputs: Record<string, readonly OutputName[]> = {
  "callbacks/base64.ts": ["callbacks", "testing"],
  "callbacks/schemes.ts": ["callbacks", "testing"],
  "callbacks/form.ts": ["callbacks", "testing"],
  "client/redact.ts": ["client", "testing"],
};

/** The stream runtime: the Stream (stream.ts) and what it reads with, one job a file. */
const streamModules = new Set<string>([
  "client/sse-parser.ts",
  "client/json-lines.ts",
  "client/stream-reader.ts",
  "client/stream.ts",
]);

/** The outputs each folder of the runtime serves: left out when every one of them is. */
const folderOutputs: Record<string, readonly OutputName[]> = {
  client: ["client"],
  callbacks: ["callbacks"],
  testing: ["testing"],
  msw: ["msw"],
  tanstack: ["tanstackQuery"],
  // what the router and the stand-in share: their request path
  http: ["callbacks", "testing"],
};

/** `src/runtime/*.ts` of the generated package. */
export function emitRuntimeFiles(ctx: EmitContext): EmittedFile[] {
  const unions = usesUnions(ctx.model) || openEvents(ctx.model);
  const paging = ctx.model.endpoints.some((e) => e.pagination);
  const streams = ctx.model.endpoints.some((e) => e.response.stream || e.streamResponse);
  const expands = ctx.model.endpoints.some((e) => e.expand);
  const conditional = ctx.model.endpoints.some((e) => e.response.notModified);
  const environments = ctx.model.environments.some((e) => e.baseUrl !== undefined);
  const banner = `// ${lineComment(ctx.banner)}`;
  // tanstack/ only with the client, which the query options call (tanstack-query-file.ts)
  return runtimeModules
    .filter((name) => {
      const outputs = fileOutputs[name] ?? folderOutputs[name.split("/")[0]!];
      return outputs === undefined || outputs.some((output) => ctx.outputs[output]);
    })
    .filter((name) => !name.startsWith("tanstack/") || ctx.outputs.client)
    .filter((name) => name !== "unions.ts" || unions)
    .filter((name) => name !== "client/pagination.ts" || paging)
    .filter((name) => !streamModules.has(name) || streams)
    .filter((name) => name !== "client/expand.ts" || expands)
    .filter((name) => name !== "client/conditional.ts" || conditional)
    .filter((name) => name !== "client/oauth.ts" || hasClientCredentials(ctx.model))
    .filter((name) => name !== "client/environments.ts" || environments)
    .filter((name) => name !== "client/basic.ts" || ctx.model.credentials.some((c) => c.basicFixed))
    .map((name) => ({
      path: `src/runtime/${name}`,
      contents: `${banner}\n// Copied from generator/runtime/${name}.\n\n${readFileSync(`${runtimeDir}${name}`, "utf8")}`,
    }));
}

/** Whether a stream has named events and takes names it does not list (`UnknownEvent`). */
function openEvents(model: ApiModel): boolean {
  return model.endpoints.some((e) =>
    [e.response, e.streamResponse].some((r) => r?.stream?.open && r.stream.events.length),
  );
}

/** Whether any type node of the model is a union: named types, parameters, bodies and answers. */
function usesUnions(model: ApiModel): boolean {
  const has = (node: TypeNode | undefined): boolean =>
    node !== undefined && (node.kind === "union" || childTypes(node).some(has));
  const operations = [...model.endpoints, ...model.callbacks];
  return (
    model.types.some((t) => has(t.type)) ||
    model.paramsTypes.some((p) => p.params.some((param) => has(param.type))) ||
    operations.some(
      (o) => o.params.some((p) => has(p.type)) || o.headers.some((h) => has(h.schema)),
    ) ||
    model.endpoints.some(
      (e) =>
        has(e.body) ||
        [e.response, e.streamResponse].some(
          (r) => has(r?.body) || r?.stream?.events.some((event) => has(event.type)),
        ),
    ) ||
    model.callbacks.some((c) => has(c.body) || has(c.success) || has(c.failure)) ||
    model.sharedHeaders.some((h) => has(h.schema)) ||
    has(model.webhooks?.payload) ||
    (model.webhooks?.events ?? []).some((e) => has(e.payload) || has(e.success))
  );
}
