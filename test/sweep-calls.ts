/**
 * The sweep's typed calls (test/sweep.ts): a generated package's own client calls its own
 * stand-in (`createStandIn().fetch`, no socket) with response validation on, for each GET
 * endpoint whose arguments can be made from its parameters' types. What each call may end in:
 *
 * - `answered`: a body that the package's validators accept;
 * - `refused`: the package's API error (a status the stand-in chose, with its body);
 * - `args`: the client refused the made-up arguments (a pattern they miss): not counted;
 * - `broken`: anything else (a response validation error, a TypeError, a decode failure), a
 *   disagreement between the stand-in, the client and the validators of one package.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ApiModel, Endpoint, NamedType, TypeNode } from "../generator/ir/model.ts";
import { compileReachable } from "./support/compiled-import.ts";

export interface CallReport {
  answered: number;
  refused: number;
  args: number;
  /** The first refusal of made-up arguments, to tell the value maker's misses from a bug. */
  firstArgs?: string;
  broken: { endpoint: string; error: string }[];
}

/** Most calls per package: enough for every kind of answer, bounded for large APIs. */
const maxCalls = 40;

/** A value of `node` that its checks accept, where one can be made without guessing. */
function valueOf(node: TypeNode, types: ReadonlyMap<string, NamedType>, depth = 0): unknown {
  if (node.docs.example !== undefined && depth === 0) return node.docs.example;
  const c = node.constraints;
  switch (node.kind) {
    case "ref": {
      const named = types.get(node.name);
      return named && depth < 4 ? valueOf(named.type, types, depth + 1) : undefined;
    }
    case "enum":
      return node.values[0];
    case "literal":
      return node.value;
    case "array": {
      const item = valueOf(node.items, types, depth + 1);
      return item === undefined ? undefined : [item];
    }
    case "primitive":
      switch (node.name) {
        case "integer":
        case "number":
          return c.minimum ?? (c.maximum !== undefined ? Math.min(c.maximum, 1) : 1);
        case "boolean":
          return true;
        case "string":
          return stringOf(c);
        default:
          return undefined;
      }
    default:
      return undefined;
  }
}

const formatted: Record<string, string> = {
  uuid: "123e4567-e89b-42d3-a456-426614174000",
  uri: "https://example.com/a",
  email: "a@example.com",
  "date-time": "2026-01-02T03:04:05Z",
  "YYYY-MM": "2026-01",
  "MM-DD-YYYY": "01-02-2026",
  "currency-code": "USD",
};

function stringOf(c: TypeNode["constraints"]): string {
  if (c.format && formatted[c.format]) return formatted[c.format]!;
  const base = `${c.prefix ?? ""}a1`;
  const min = c.minLength ?? 0;
  return base.length >= min ? base.slice(0, c.maxLength ?? base.length) : base.padEnd(min, "a");
}

/** The call's arguments: path parameters in the path's order, then the required others. */
function argumentsOf(e: Endpoint, types: ReadonlyMap<string, NamedType>): unknown[] | undefined {
  if (
    e.method !== "GET" ||
    e.body ||
    e.streamResponse ||
    e.params.some((p) => p.placement === "trailing")
  )
    return undefined;
  const args: unknown[] = [];
  for (const [, name] of e.path.matchAll(/\{([^}]+)\}/g)) {
    const param = e.params.find((p) => p.placement === "path" && p.name === name);
    const value = param && valueOf(param.type, types);
    if (value === undefined) return undefined;
    args.push(value);
  }
  const rest: Record<string, unknown> = {};
  for (const p of e.params)
    if (p.placement !== "path" && p.required) {
      const value = valueOf(p.type, types);
      if (value === undefined) return undefined;
      rest[p.name] = value;
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
  const load = (f: string) =>
    import(pathToFileURL(f.replace(/\.ts$/, ".js")).href) as Promise<Record<string, any>>;
  const [index, testing, validators] = await Promise.all(files.map(load));
  const standIn = testing!.createStandIn({ seed: 7 });
  const options: Record<string, unknown> = {
    baseUrl: "http://stand-in.local",
    fetch: (input: Request | string | URL, init?: RequestInit) =>
      standIn.fetch(new Request(input, init)),
    maxRetries: 0,
  };
  // a package whose answers have no type to check has no response validators
  if (validators!.responseValidators) {
    options.validateResponses = "throw";
    options.responseValidators = validators!.responseValidators;
  }
  for (const c of model.credentials)
    if (c.placement !== "none" && c.placement !== "signature")
      options[c.optionName] = credentialValue(c.placement);
  const client = new index![model.api.clientName](options);
  const types = new Map(model.types.map((t) => [t.name, t] as const));
  const report: CallReport = { answered: 0, refused: 0, args: 0, broken: [] };
  for (const e of model.endpoints) {
    if (report.answered + report.refused + report.args + report.broken.length >= maxCalls) break;
    const args = argumentsOf(e, types);
    if (!args) continue;
    try {
      await client[e.groupProperty][e.methodName](...args, { signal: AbortSignal.timeout(5000) });
      report.answered++;
    } catch (error) {
      const name = (error as Error)?.name ?? "";
      if (typeof (error as { status?: unknown }).status === "number" && "body" in (error as object))
        report.refused++;
      else if (name === "RequestValidationError" || name === "MissingCredentialError") {
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
