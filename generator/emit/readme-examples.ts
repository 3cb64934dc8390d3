/**
 * The short examples of the generated README: one client call per endpoint and one handler
 * per callback, written from the IR. Bodies and answers are literals with a value per type
 * (the spec's example where it gives one, else a placeholder): every required field, and in
 * the two outer levels a few optional ones of known type too, so an example shows a shape.
 */
import type { ApiModel, Callback, Endpoint, Field, TypeNode } from "../ir/model.ts";
import { objectFieldsOf, resolveType, responseEventField } from "./callback-shapes.ts";

/** Deepest nesting a sample literal goes to; below it an object is an elided literal. */
const maxDepth = 4;

/** Levels (from the outside) that show optional fields too, and how many fields at most. */
const optionalDepth = 2;
const optionalFields = 3;

/** A property key as TypeScript writes it. */
function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/** An object literal of the required fields. */
function objectSample(
  fields: readonly Field[],
  model: ApiModel,
  depth: number,
  omit?: string,
): string {
  const own = fields.filter((f) => f.name !== omit);
  const required = own.filter((f) => f.required);
  const optional =
    depth < optionalDepth ? own.filter((f) => !f.required && f.type.kind !== "unknown") : [];
  const shown = [...required, ...optional.slice(0, Math.max(0, optionalFields - required.length))];
  if (shown.length === 0) return "{}";
  if (depth >= maxDepth) return "{ /* … */ }";
  return `{ ${shown.map((f) => `${key(f.name)}: ${sample(f.type, model, depth + 1)}`).join(", ")} }`;
}

/** A literal of a value of `node`: the spec's example, or a placeholder of its type. */
export function sample(node: TypeNode, model: ApiModel, depth = 0, omit?: string): string {
  if (node.docs.example !== undefined) return JSON.stringify(node.docs.example);
  switch (node.kind) {
    case "primitive":
      return node.name === "string"
        ? JSON.stringify(node.constraints.prefix ? `${node.constraints.prefix}…` : "…")
        : node.name === "boolean"
          ? "false"
          : "0";
    case "unknown":
      return "null";
    case "literal":
      return JSON.stringify(node.value);
    case "enum":
      return JSON.stringify(node.values[0] ?? null);
    case "array":
      return "[]";
    case "map":
      return "{}";
    case "object":
      return objectSample(node.fields, model, depth, omit);
    case "ref": {
      const resolved = resolveType(node, model);
      return resolved.kind === "ref" ? "{}" : sample(resolved, model, depth, omit);
    }
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/** `const transaction = await client.transactions.get("<reference>");` */
export function endpointExample(endpoint: Endpoint, model: ApiModel): string {
  const args = endpoint.params
    .filter((p) => p.placement !== "query")
    .map((p) => JSON.stringify(`<${p.name}>`));
  if (endpoint.body) args.push(sample(endpoint.body, model));
  const query = endpoint.params.filter((p) => p.placement === "query");
  if (query.some((p) => p.required))
    args.push(
      `{ ${query
        .filter((p) => p.required)
        .map((p) => `${key(p.name)}: ${sample(p.type, model)}`)
        .join(", ")} }`,
    );
  const call = `client.${endpoint.group}.${endpoint.name}(${args.join(", ")})`;
  return endpoint.response.body
    ? `const ${endpoint.name}Result = await ${call};`
    : `await ${call};`;
}

/** The handler of a callback answering its success type (the router adds `event`). */
export function callbackExample(callback: Callback, model: ApiModel): string {
  const input = callback.body ? "body" : callback.paramsTypeName ? "params" : "";
  const answer = callback.success ?? callback.failure;
  const event = responseEventField(callback, model);
  const fields = answer ? objectFieldsOf(answer, model) : undefined;
  const head = `${JSON.stringify(callback.event)}: async (${input}) =>`;
  if (!answer) return `${head} {},`;
  return `${head} (${fields ? objectSample(fields, model, 0, event) : sample(answer, model)}),`;
}
