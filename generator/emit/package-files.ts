/**
 * Emits the generated package's non-code files from handlebars templates: `package.json` (its
 * entry points from package-entries.ts), `tsconfig.json`, `tsconfig.build.json`,
 * `tsconfig.cjs.json`, `.gitignore` and `README.md`.
 */
import { refText } from "../ir/generics.ts";
import type { ApiModel, Callback } from "../ir/model.ts";
import { arr, call, id, lit, member, newExpr, obj } from "./code/build.ts";
import type { Expr, FileStatement, Statement } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { markdownCell, markdownCode, markdownText } from "./shared/escape.ts";
import { markdownTable } from "./shared/markdown.ts";
import { globalRef } from "./shared/symbols.ts";
import { callbackExample, endpointExample, pathArguments, typeLookup } from "./readme-examples.ts";
import { template } from "./templates.ts";
import {
  browserMap,
  entryPointsJson,
  entryTable,
  hasCallbacks,
  hasTanstackQuery,
} from "./package-entries.ts";

/** Renders `templates/<name>.hbs` with `view`. */
function render(name: string, view: object): string {
  return template(name)(view);
}

/** The text of a README code block: statements printed as every generated file is. */
function code(statements: readonly (Statement | FileStatement)[]): string {
  const entries = statements.map((s) => ("statement" in s ? s : { statement: s, tight: true }));
  return printSourceFile({ path: "README.md", statements: entries }).trimEnd();
}

const importFrom = (
  specifier: string,
  names: readonly string[],
  isTypeOnly = false,
): Statement => ({
  kind: "import-from",
  specifier,
  isTypeOnly,
  names: names.map((name) => ({ name, isType: isTypeOnly })),
});

const constant = (name: string, init: Expr): Statement => ({
  kind: "variable",
  declarationKind: "const",
  name,
  init,
});

/** The endpoint whose call makes the shortest example: only path parameters and no body. */
function exampleEndpoint(model: ApiModel) {
  return (
    model.endpoints.find((e) => !e.body && e.params.every((p) => p.placement === "path")) ??
    model.endpoints[0]
  );
}

/**
 * `new MerchantClient({ baseUrl: "https://…", apiKey: "…" })`, or the core; with the first
 * environment whose address the spec gives (`environment: "sandbox"`) in place of `baseUrl`.
 */
function construct(model: ApiModel, className: string): Expr {
  const environment = model.environments.find((e) => e.baseUrl !== undefined);
  const credentials = [...new Set(model.endpoints.flatMap((e) => e.auth))];
  const placeholder = (id: string) => {
    const credential = model.credentials.find((c) => c.id === id);
    // a basic credential of which the spec fixes a half takes the other half, a string
    return credential?.placement === "basic" && !credential.basicFixed
      ? obj([
          ["username", lit("…")],
          ["password", lit("…")],
        ])
      : lit("…");
  };
  return newExpr(
    globalRef(className, false),
    obj([
      environment ? ["environment", lit(environment.name)] : ["baseUrl", lit("https://…")],
      // the variables of its address that have no default: the call needs them
      ...variablesToGive(environment),
      ...credentials.map(
        (c) =>
          [model.credentials.find((k) => k.id === c)?.optionName ?? c, placeholder(c)] as const,
      ),
    ]),
  );
}

/** `serverVariables: { subdomain: "…" }` where the environment's address needs values. */
function variablesToGive(environment: ApiModel["environments"][number] | undefined) {
  const needed = environment?.variables.filter((v) => v.default === undefined) ?? [];
  return needed.length
    ? [["serverVariables", obj(needed.map((v) => [v.name, lit("…")] as const))] as const]
    : [];
}

/** The arguments of the example call: placeholder path parameters, an empty body. */
function exampleArgs(model: ApiModel): Expr[] {
  const endpoint = exampleEndpoint(model);
  if (!endpoint) return [];
  const args = pathArguments(endpoint, typeLookup(model));
  if (endpoint.body) args.push(obj([]));
  return args;
}

/** The client block: construct the client, then call one endpoint. */
function clientCode(model: ApiModel): string {
  const { clientName, errorClassName, packageName } = model.api;
  const endpoint = exampleEndpoint(model);
  return code([
    { statement: importFrom(packageName, [clientName, errorClassName]) },
    { statement: constant("client", construct(model, clientName)) },
    ...(endpoint
      ? [
          constant("result", {
            kind: "await",
            expr: call(
              member(member(id("client"), endpoint.groupProperty), endpoint.methodName),
              ...exampleArgs(model),
            ),
          }),
        ]
      : []),
  ]);
}

/** The block of the standalone functions: the core, then one function. */
function functionCode(model: ApiModel): string {
  const endpoint = exampleEndpoint(model)!;
  const { coreClassName, packageName } = model.api;
  return code([
    { statement: importFrom(packageName, [coreClassName, endpoint.functionName]) },
    { statement: constant("core", construct(model, coreClassName)) },
    constant("value", {
      kind: "await",
      expr: call(id(endpoint.functionName), id("core"), ...exampleArgs(model)),
    }),
  ]);
}

/** `webhook: { path: "/webhooks", handlers: { issues: async (payload, ctx) => {}, ... } }`, for typed webhook events. */
function webhookOption(model: ApiModel): Expr | undefined {
  const events = model.webhooks?.events ?? [];
  if (events.length === 0) return undefined;
  const handler = (): Expr => ({
    kind: "arrow",
    isAsync: true,
    params: [{ name: "payload" }, { name: "ctx" }],
    body: [],
  });
  return obj(
    [
      ["path", lit("/webhooks")],
      [
        "handlers",
        obj(
          events.map((e) => [e.name, handler()] as const),
          { expanded: true },
        ),
      ],
    ],
    { expanded: true },
  );
}

/** The block of the callback router: the handlers, the router, a server. */
function callbacksCode(model: ApiModel): string {
  const types = typeLookup(model);
  const hasHandlers = model.callbacks.length > 0 || !model.webhooks?.events.length;
  const webhook = webhookOption(model);
  const router = call(
    id("createCallbackRouter"),
    obj(
      [
        [
          "signingSecrets",
          signedParts(model).signed.length
            ? arr([member(member(id("process"), "env"), "SIGNING_SECRET")])
            : undefined,
        ],
        ["handlers", hasHandlers ? id("handlers") : undefined],
        ["webhook", webhook],
      ],
      webhook ? { expanded: true } : {},
    ),
  );
  const server = call(
    member(call(member(id("http"), "createServer"), member(id("router"), "node")), "listen"),
    lit(3000),
  );
  return code([
    { statement: { kind: "import-from", specifier: "node:http", defaultName: "http" } },
    {
      statement: {
        kind: "import-from",
        specifier: `${model.api.packageName}/callbacks`,
        names: [
          { name: "createCallbackRouter", isType: false },
          ...(hasHandlers ? [{ name: "CallbackHandlers", isType: true }] : []),
        ],
      },
      tight: true,
    },
    ...(hasHandlers
      ? [
          {
            statement: {
              kind: "variable",
              declarationKind: "const",
              name: "handlers",
              type: globalRef("CallbackHandlers"),
              init: {
                kind: "object",
                properties: model.callbacks.map((c) => callbackExample(c, types)),
                expanded: true,
              },
            } satisfies Statement,
          },
        ]
      : []),
    { statement: constant("router", router) },
    { statement: { kind: "expression-statement", expr: server }, tight: true },
  ]);
}

/** A callback's summary, else the first sentence of its description (a summary that only repeats the event says nothing). */
function callbackSummary(callback: Callback): string {
  if (callback.summary && callback.summary !== callback.event) return callback.summary;
  return callback.docs.description?.trim().split(/(?<=\.)\s/)[0] ?? "";
}

/** `` `id`: summary ``, as a table cell. */
const summaryCell = (name: string, summary: string | undefined) =>
  markdownCell(`${markdownCode(name)}${summary ? `: ${markdownText(summary)}` : ""}`);

/**
 * The statuses the client retries, as the README lists them: the runtime's defaults (408, 429,
 * 5xx) with the spec's `retry: true` statuses added and its `retry: false` ones taken away
 * (retry.ts), so the README says what the client does for this API (Stripe's 409 included).
 */
export function retriedStatuses(retry: ApiModel["errors"]["retry"]): string {
  const below500 = [...new Set([408, 429, ...retry.statuses, ...retry.anyMethod])]
    .filter((s) => s < 500 && !retry.never.includes(s))
    .sort((a, b) => a - b);
  const serverNever = retry.never.filter((s) => s >= 500).sort((a, b) => a - b);
  const server = serverNever.length ? `5xx (but ${serverNever.join(", ")})` : "5xx";
  return [...below500.map(String), server].join(", ");
}

/** The callbacks (by event) and webhook deliveries a spec signs, and those it does not. */
function signedParts(model: ApiModel): { signed: string[]; unsigned: string[] } {
  const signed: string[] = [];
  const unsigned: string[] = [];
  for (const c of model.callbacks)
    (c.routing.signatureHeader !== undefined ? signed : unsigned).push(markdownCode(c.event));
  if (model.webhooks)
    (model.webhooks.signatureHeader !== undefined ? signed : unsigned).push("webhook deliveries");
  return { signed, unsigned };
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (names: readonly string[]) =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

/** The README's sentence on what the router checks: the signature only where the spec declares one. */
function routerChecksText(model: ApiModel): string {
  const { signed, unsigned } = signedParts(model);
  const rest = "answers in the spec's shapes; you write one handler per event:";
  if (unsigned.length === 0)
    return "The router checks each request's signature over the raw body, validates it and answers in the\nspec's shapes; you write one handler per event:";
  const open = `the spec declares no signature for ${listed(unsigned)}, so anyone who can reach your server can send ${signed.length ? "those" : "them"} (\`apigen generate\` warns about each)`;
  return signed.length === 0
    ? `The router checks no signature: ${open}. It validates each request and ${rest}`
    : `The router checks the signature over the raw body of ${listed(signed)} (not of the others: ${open}), validates each request and ${rest}`;
}

/**
 * What the templates show, read from the IR. Texts are given as they are, for the template to
 * write through the helper of its context (template-helpers.ts); the `...Code`, `...Table` and
 * `...Markdown` fields are blocks built here from escaped parts, inserted whole.
 */
function packageView(ctx: EmitContext) {
  const { model } = ctx;
  const { packageName } = model.api;
  const types = typeLookup(model);
  const exampleTypes = model.types.slice(0, 3).map((t) => t.name);
  const paged = model.endpoints.filter((e) => e.pagination);
  const selector = model.webhooks?.eventSelector;
  return {
    banner: ctx.banner,
    specName: ctx.specName,
    packageName,
    version: model.api.version,
    title: model.api.title,
    // spaces and line ends trimmed, not all that trim() drops: a BOM or U+3000 is text to show
    description: (model.api.docs.description ?? model.api.title).replace(
      /^[ \t\n\r]+|[ \t\n\r]+$/g,
      "",
    ),
    typeCount: model.types.length,
    errorClassName: model.api.errorClassName,
    retriedStatuses: retriedStatuses(model.errors.retry),
    notProcessedStatuses: model.errors.retry.anyMethod.join(", "),
    coreName: model.api.coreClassName,
    typesCode: exampleTypes.length ? code([importFrom(packageName, exampleTypes, true)]) : "",
    clientCode: clientCode(model),
    pagedListsMarkdown: paged.map((e) => markdownCode(e.id)).join(", "),
    pagedWalk: paged[0] ? `for await (const item of client.${paged[0].id}(…))` : "",
    functionCode: exampleEndpoint(model) ? functionCode(model) : "",
    entryTable: entryTable(ctx),
    endpointTable: markdownTable(
      ["Endpoint", "Method", "Path", "Credentials"],
      model.endpoints.map((e) => [
        summaryCell(e.id, e.summary),
        e.method,
        markdownCell(markdownCode(e.path)),
        markdownCell(
          e.auth
            .map((id) => {
              const c = model.credentials.find((credential) => credential.id === id);
              const where =
                c?.placement === "basic"
                  ? "Authorization: Basic"
                  : c?.placement === "query" && c.name
                    ? `?${c.name}`
                    : (c?.header ?? id);
              return `${markdownCode(where)}${e.optionalAuth.includes(id) ? " (optional)" : ""}`;
            })
            .join(", ") || "none",
        ),
      ]),
    ),
    endpoints: model.endpoints.map((e) => ({
      id: e.id,
      exampleCode: code([endpointExample(e, types)]),
    })),
    hasCallbacks: hasCallbacks(ctx),
    browserMap: browserMap(ctx),
    outputs: ctx.outputs,
    hasStreams: model.endpoints.some((e) => e.response.stream || e.streamResponse),
    callbackTable: markdownTable(
      ["Event", "Method", "Path"],
      model.callbacks.map((c) => [
        summaryCell(c.event, callbackSummary(c)),
        c.method,
        markdownCell(markdownCode(c.path)),
      ]),
    ),
    hasCallbackTable: model.callbacks.length > 0,
    webhookTable: model.webhooks?.events.length
      ? markdownTable(
          ["Webhook event", "Payload"],
          model.webhooks.events.map((e) => [
            summaryCell(e.name, e.docs.description?.trim().split(/(?<=\.)\s/)[0]),
            markdownCell(e.payload.kind === "ref" ? markdownCode(refText(e.payload)) : "inline"),
          ]),
        )
      : "",
    webhookSelectorMarkdown:
      selector?.in === "field"
        ? `the payload's ${markdownCode(selector.name)} field`
        : `the ${markdownCode(selector?.name ?? "")} header`,
    callbacksCode: callbacksCode(model),
    routerChecksMarkdown: routerChecksText(model),
    entryPointsJson: entryPointsJson(ctx),
    testingEntry: `${packageName}/testing`,
    hasTanstackQuery: hasTanstackQuery(ctx),
    peers: peerDependencies(ctx),
    tanstackQueryEntry: `${packageName}/tanstack-query`,
    standInCode: standInCode(packageName),
    mswEntry: `${packageName}/msw`,
    mswCode: mswCode(model),
    openApiEntry: `${packageName}/openapi`,
    gapCount: model.gaps.length,
    notes: readmeNotes(model),
    untypedCount: model.gaps.filter((g) => g.kind === "untyped").length,
  };
}

/**
 * The README's list of what the source does not show, by subject and then text: the same list
 * whichever way the spec came (a spec folder, or the OpenAPI document it was imported from),
 * where the locations that order the model's gaps are each route's own (`--gaps` lists those).
 */
function readmeNotes(model: ApiModel): { subject: string; text: string }[] {
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return model.gaps
    .filter((g) => g.kind === "note")
    .map((g) => ({ subject: g.subject, text: g.text }))
    .sort((a, b) => byCodePoint(a.subject, b.subject) || byCodePoint(a.text, b.text));
}

/** The block of the stand-in: serve it, point the client at it. */
function standInCode(packageName: string): string {
  const standIn = call(id("createStandIn"), obj([["seed", lit(1)]]));
  return code([
    { statement: importFrom(`${packageName}/testing`, ["createStandIn", "listen"]) },
    { statement: constant("service", { kind: "await", expr: call(id("listen"), standIn) }) },
    {
      kind: "comment",
      text: "Point the client's baseUrl at service.url; when done: await service.close();",
    },
  ]);
}

/** The block of the msw handlers: make them, then what msw takes them with. */
function mswCode(model: ApiModel): string {
  const handlers = call(id("standInHandlers"), obj([["baseUrl", lit("https://…")]]));
  const endpoint = exampleEndpoint(model);
  return code([
    { statement: importFrom(`${model.api.packageName}/msw`, ["standInHandlers"]) },
    { statement: constant("api", handlers) },
    {
      kind: "comment",
      text: "setupServer(...api.handlers) from msw/node, or setupWorker(...api.handlers) from msw/browser;",
    },
    ...(endpoint
      ? [
          {
            kind: "comment" as const,
            text: `server.use(api.override(${JSON.stringify(endpoint.id)}, value)) answers that endpoint with a value of its type.`,
          },
        ]
      : []),
  ]);
}

/** Markdown as prettier ends it: one blank line at most between blocks, one newline at the end. */
function markdownFile(text: string): string {
  return `${text.replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}

/** The `@tanstack/query-core` the package's own type-check and build use (its peer range is wider). */
const tanstackQueryVersion = "5.108.4";

/**
 * The optional peer dependencies of the package's integrations, by name: the range a user's
 * project may have, and the version the package's own type-check and build use (its
 * devDependency, the repository's own).
 */
function peerDependencies(ctx: EmitContext): { name: string; range: string; version: string }[] {
  return [
    ...(hasTanstackQuery(ctx)
      ? [{ name: "@tanstack/query-core", range: "^5.62.0", version: tanstackQueryVersion }]
      : []),
    ...(ctx.outputs.msw ? [{ name: "msw", range: "^2.0.0", version: "2.15.0" }] : []),
  ];
}

/** `package.json`, `tsconfig.json` (strict check, no output), `tsconfig.build.json` (src/ to dist/), `tsconfig.cjs.json` (src/ to dist/cjs/), `.gitignore` (dist/) and `README.md` of the generated package. */
export function emitPackageFiles(ctx: EmitContext): EmittedFile[] {
  const view = packageView(ctx);
  return [
    { path: "package.json", contents: render("package.json", view) },
    { path: "tsconfig.json", contents: render("tsconfig.json", view) },
    { path: "tsconfig.build.json", contents: render("tsconfig.build.json", view) },
    { path: "tsconfig.cjs.json", contents: render("tsconfig.cjs.json", view) },
    // dist/ is the build's: "commit generated/" would otherwise commit every built file.
    { path: ".gitignore", contents: render("gitignore", view), yieldsToUser: true },
    { path: "README.md", contents: markdownFile(render("README.md", view)) },
  ];
}
