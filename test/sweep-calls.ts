/**
 * The sweep's typed calls (test/sweep.ts): a generated package's own client calls its own
 * stand-in (`listen(createStandIn())` on 127.0.0.1) with response validation on, for each
 * endpoint whose arguments can be made (by the stand-in's own sampler, from its parameters'
 * and body's types), every method. What each call may end in:
 *
 * - `answered`: a body that the package's validators accept;
 * - `refused`: the package's API error (a status the stand-in chose, with its body);
 * - `args`: the client refused the made-up arguments (a pattern they miss): not counted;
 * - `broken`: anything else (a response validation error, a TypeError, a decode failure), a
 *   disagreement between the stand-in, the client and the validators of one package; and a
 *   refusal of the request as invalid input (the route's `invalidInput` status), since the
 *   arguments are values of the very types the stand-in checks them against.
 */
import { join } from "node:path";
import type { ApiModel, Endpoint, TypeNode } from "../generator/ir/model.ts";
import type { TypeLookup } from "../generator/ir/callback-routing.ts";
import { clientCredentialsFlow, isTemplateUrl } from "../generator/ir/build-oauth.ts";
import { shapeOf, shapeTableOf } from "../generator/ir/stand-in-shapes.ts";
import { sample, seeded } from "../generator/runtime/testing/sample.ts";
import { compileReachable, importCompiled } from "./support/compiled-import.ts";

export interface CallReport {
  answered: number;
  /** Of those answered, the calls of another method than GET (with a body, most of them). */
  answeredNotGet: number;
  /** Of those answered, the streams (server-sent events, JSON lines) read through. */
  streams: number;
  refused: number;
  args: number;
  /** The first refusal of made-up arguments, to tell the value maker's misses from a bug. */
  firstArgs?: string;
  broken: { endpoint: string; error: string }[];
  /** Credentials whose token the package's client-credentials maker asked the stand-in for. */
  tokenGrants?: number;
}

/** Most calls per package: enough for every kind of answer, bounded for large APIs. */
const maxCalls = 40;

/** A value of a type, as the stand-in makes one (runtime/testing/sample.ts): it passes the type's checks. */
type ValueMaker = (node: TypeNode) => unknown;

function valueMaker(model: ApiModel, lookup: TypeLookup): ValueMaker {
  const table = shapeTableOf(
    model.types,
    model.endpoints.flatMap((e) => [...e.params.map((p) => p.type), e.body]),
  );
  const random = seeded(7);
  return (node) => sample(shapeOf(node, lookup), table, random);
}

/**
 * A sampled value as a call passes it: a `binary` value (the sampler's text) as a Blob where
 * the body's encoding sends bytes (a multipart part, a binary body); JSON keeps the text,
 * which is how bytes travel in JSON.
 */
function forWire(value: unknown, node: TypeNode, lookup: TypeLookup, depth = 0): unknown {
  if (depth > 20 || value === null || value === undefined) return value;
  switch (node.kind) {
    case "primitive":
      return node.name === "binary" ? new Blob([String(value)]) : value;
    case "ref": {
      const named = lookup.get(node.name);
      return named ? forWire(value, named.type, lookup, depth + 1) : value;
    }
    case "array":
      return Array.isArray(value)
        ? value.map((item) => forWire(item, node.items, lookup, depth + 1))
        : value;
    case "object":
      if (typeof value !== "object") return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, field]) => {
          const declared = node.fields.find((f) => f.name === key);
          return [key, declared ? forWire(field, declared.type, lookup, depth + 1) : field];
        }),
      );
    default:
      return value;
  }
}

/** The call's arguments: path parameters in the path's order, the body, then the required others. */
function argumentsOf(e: Endpoint, valueOf: ValueMaker, lookup: TypeLookup): unknown[] | undefined {
  if (e.params.some((p) => p.placement === "trailing")) return undefined;
  const args: unknown[] = [];
  for (const [, name] of e.path.matchAll(/\{([^}]+)\}/g)) {
    const param = e.params.find((p) => p.placement === "path" && p.name === name);
    if (!param) return undefined;
    const value = valueOf(param.type);
    args.push(value);
  }
  if (e.body) {
    const bytes = e.requestBody?.encoding === "multipart" || e.requestBody?.encoding === "binary";
    const value = valueOf(e.body);
    // an endpoint whose body's flag switches its answer to a stream is asked for the stream
    const flag = e.streamResponse?.flag;
    if (flag !== undefined && value !== null && typeof value === "object")
      (value as Record<string, unknown>)[flag] = true;
    args.push(bytes ? forWire(value, e.body, lookup) : value);
  }
  const rest: Record<string, unknown> = {};
  for (const p of e.params)
    if (p.placement !== "path" && p.required) {
      rest[p.name] = valueOf(p.type);
    }
  // the options come after the parameters' object wherever the endpoint has one
  return e.params.some((p) => p.placement !== "path") ? [...args, rest] : args;
}

/** A credential's made-up value: any non-empty value passes the stand-in's check. */
const credentialValue = (placement: string) =>
  placement === "basic" ? { username: "user", password: "pass" } : "k-1";

export async function sweepCalls(model: ApiModel, pkg: string): Promise<CallReport> {
  const src = join(pkg, "src");
  const files = ["index.ts", "testing.ts", "validators.ts"].map((f) => join(src, f));
  compileReachable(files);
  // by Node itself: through vitest's module runner, the corpus packages' JavaScript (some 18 MB)
  // was transformed, source-mapped and graphed again by the run's main process
  const [index, testing, validators] = await Promise.all(
    files.map((f) => importCompiled<Record<string, any>>(f)),
  );
  // over a socket on 127.0.0.1, as `apigen mock` serves it: what HTTP makes of an answer
  // (its framing headers) counts too
  const running = await testing!.listen(testing!.createStandIn({ seed: 7 }));
  try {
    return await callEach(model, index!, validators!, running.url);
  } finally {
    await running.close();
  }
}

/**
 * The endpoints in the order they are called: streams first, then the rest as the spec lists
 * them, so that a document's streams (Mastodon's, past its first 40 operations) are read
 * within `maxCalls`.
 */
function callOrder(endpoints: readonly Endpoint[]): Endpoint[] {
  const streams = endpoints.filter((e) => e.response.stream || e.streamResponse);
  return [...streams, ...endpoints.filter((e) => !streams.includes(e))];
}

/** Every endpoint the value maker gives arguments for (at most `maxCalls`), called on `baseUrl`. */
async function callEach(
  model: ApiModel,
  index: Record<string, any>,
  validators: Record<string, any>,
  baseUrl: string,
): Promise<CallReport> {
  const options: Record<string, unknown> = {
    baseUrl,
    maxRetries: 0,
    // endpoints served from other hosts (Box's account.box.com) go to the stand-in too
    fetch: async (input: Request | string | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const bodyless = request.method === "GET" || request.method === "HEAD";
      // joined as text: a path beginning `//` stays a path on 127.0.0.1, never a host
      return fetch(`${baseUrl}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body: bodyless ? null : await request.arrayBuffer(),
        redirect: "manual",
        signal: request.signal,
      });
    },
  };
  // a package whose answers have no type to check has no response validators
  if (validators.responseValidators) {
    options.validateResponses = "throw";
    options.responseValidators = validators.responseValidators;
  }
  let tokenGrants = 0;
  for (const c of model.credentials) {
    if (c.placement === "none" || c.placement === "signature") continue;
    // a token the package asks for itself, where the stand-in serves the token URL
    const maker = index[`${c.optionName}ClientCredentials`];
    const flow = clientCredentialsFlow(c);
    if (typeof maker === "function" && flow?.tokenUrl && !isTemplateUrl(flow.tokenUrl)) {
      const grant = { clientId: "sweep", clientSecret: "sweep-secret", baseUrl };
      options[c.optionName] = maker({ ...grant, fetch: options.fetch });
      tokenGrants++;
    } else options[c.optionName] = credentialValue(c.placement);
  }
  const client = new index[model.api.clientName](options);
  const lookup: TypeLookup = new Map(model.types.map((t) => [t.name, t] as const));
  const valueOf = valueMaker(model, lookup);
  const invalidInput = new Map(
    model.standIn.table.routes.map((r) => [r.endpoint, r.invalidInput] as const),
  );
  const report: CallReport = {
    answered: 0,
    answeredNotGet: 0,
    streams: 0,
    refused: 0,
    args: 0,
    broken: [],
    ...(tokenGrants ? { tokenGrants } : {}),
  };
  for (const e of callOrder(model.endpoints)) {
    if (report.answered + report.refused + report.args + report.broken.length >= maxCalls) break;
    const args = argumentsOf(e, valueOf, lookup);
    if (!args) continue;
    try {
      const result = await client[e.groupProperty][e.methodName](...args, {
        signal: AbortSignal.timeout(5000),
      });
      // a stream's items are checked as they are read: read them (a few)
      if (result !== null && typeof result === "object" && Symbol.asyncIterator in result) {
        let read = 0;
        for await (const _item of result as AsyncIterable<unknown>) if (++read >= 20) break;
        report.streams++;
      }
      report.answered++;
      if (e.method !== "GET") report.answeredNotGet++;
    } catch (error) {
      const name = (error as Error)?.name ?? "";
      const status = (error as { status?: unknown }).status;
      if (typeof status === "number" && "body" in (error as object)) {
        if (status === invalidInput.get(e.id))
          report.broken.push({
            endpoint: e.id,
            error: `InvalidInput ${status}: ${String((error as Error).message).slice(0, 300)}`,
          });
        else report.refused++;
      } else if (name === "RequestValidationError" || name === "MissingCredentialError") {
        report.args++;
        report.firstArgs ??= `${e.id}: ${(error as Error).message}`;
      } else
        report.broken.push({
          endpoint: e.id,
          error: `${name}: ${String((error as Error)?.message).slice(0, 200)}`,
        });
    }
  }
  return report;
}
