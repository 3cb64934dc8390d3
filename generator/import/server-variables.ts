/**
 * A server's URL variables (`https://{subdomain}.example.com/{version}`): kept as the
 * environment's `variables`, its address a template the client fills in (the
 * `serverVariables` option), where the format can say them: every variable of the URL
 * declared, in the host or the path (not the scheme), each default and listed value one the
 * client takes in its place. Otherwise their defaults are filled in, and noted.
 */
import { addressVariables, variableValueProblem } from "../runtime/client/environments.ts";
import { isObject, note, stringOf, under, type ImportContext } from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";

const variableName = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * The environment's address for `url`: the template and its variables where they can be
 * kept, else the URL with every variable at its default (noted on `environment`).
 */
export function serverAddress(
  ctx: ImportContext,
  url: string,
  variables: JsonValue | undefined,
  at: Pointer,
  environment: JsonObject,
): { url: string; variables?: JsonObject } {
  if (!isObject(variables)) return { url };
  const kept = keptVariables(ctx, url, variables, at, environment);
  if (kept) return Object.keys(kept).length ? { url, variables: kept } : { url };
  let filled = url;
  for (const [name, variable] of Object.entries(variables))
    if (isObject(variable) && variable.default !== undefined)
      filled = filled.replaceAll(`{${name}}`, String(variable.default));
  note(ctx, environment, at, "server variables; their defaults are filled in");
  return { url: filled };
}

/** The variables as the format writes them, or undefined when the URL cannot keep them. */
function keptVariables(
  ctx: ImportContext,
  url: string,
  variables: JsonObject,
  at: Pointer,
  environment: JsonObject,
): JsonObject | undefined {
  if (!/^https?:\/\//.test(url)) return undefined;
  const used = addressVariables(url);
  if (used.some(({ name }) => !variableName.test(name) || !isObject(variables[name])))
    return undefined;
  const out: JsonObject = {};
  for (const [name, raw] of Object.entries(variables)) {
    const places = used.filter((u) => u.name === name);
    if (!places.length) {
      note(
        ctx,
        environment,
        under(at, name),
        `server variable ${name} is not in the URL: left out`,
      );
      continue;
    }
    const inHost = places.some((place) => place.inHost);
    const variable = variableOf(name, raw as JsonObject, inHost);
    if (!variable) return undefined;
    out[name] = variable;
  }
  return out;
}

/**
 * One variable, or undefined when a value of it is one the client would refuse in its place.
 * A variable the caller must give has no default: apigen marks it `x-apigen-required` beside
 * the default OpenAPI asks for, and other documents give its own placeholder (VTEX's
 * `accountName: { default: "{accountName}" }`).
 */
function variableOf(name: string, raw: JsonObject, inHost: boolean): JsonObject | undefined {
  const values = Array.isArray(raw.enum) ? raw.enum.map(String) : undefined;
  const fallback =
    raw.default === undefined || raw.default === null ? undefined : String(raw.default);
  const required = raw["x-apigen-required"] === true || fallback === `{${name}}`;
  const given = [...(values ?? []), ...(fallback !== undefined && !required ? [fallback] : [])];
  if (given.some((v) => variableValueProblem(v, inHost) !== undefined)) return undefined;
  if (values && fallback !== undefined && !required && !values.includes(fallback)) return undefined;
  const description = stringOf(raw, "description") ?? stringOf(raw, "x-apigen-description");
  return {
    ...(description?.trim() ? { description: description.trim() } : {}),
    ...(fallback !== undefined && !required ? { default: fallback } : {}),
    ...(values ? { enum: [...new Set(values)] } : {}),
  };
}
