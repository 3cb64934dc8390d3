/**
 * Which named types and parameters interfaces get a validator in `src/validators.ts`: those
 * the package's own code checks, with every type they refer to. The client checks each
 * endpoint's parameters and body before sending (the stand-in checks the same requests), and
 * the router each callback's parameters and body and each webhook delivery's payload. A type
 * that only responses use gets none: validators.ts is not a public entry of the package, so
 * nothing could call it (GitHub's API: 1,312 of 2,156 are used; bench/github.ts).
 */
import type { ApiModel, Endpoint, TypeNode } from "./model.ts";
import { referencedNames } from "./walk.ts";

/** `used`: the validators the package calls (the default); `all`: one per named type and parameters interface. */
export type ValidatorSet = "used" | "all";

type ModelWithoutValidated = Omit<ApiModel, "validated">;

/** The names to validate, in the model's order: named types, then parameters interfaces. */
export function validatedNames(model: ModelWithoutValidated, set: ValidatorSet): string[] {
  const names = [...model.types.map((t) => t.name), ...model.paramsTypes.map((p) => p.name)];
  if (set === "all") return names;
  const used = usedClosure(model);
  return names.filter((name) => used.has(name));
}

/** The types the package's code validates, and every type those refer to. */
function usedClosure(model: ModelWithoutValidated): Set<string> {
  const typeOf = new Map<string, readonly TypeNode[]>();
  for (const t of model.types) typeOf.set(t.name, [t.type]);
  for (const p of model.paramsTypes)
    typeOf.set(
      p.name,
      p.params.map((param) => param.type),
    );
  const used = new Set<string>();
  const pending = [...roots(model)];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (used.has(name)) continue;
    used.add(name);
    pending.push(...referencedNames(...(typeOf.get(name) ?? [])));
  }
  return used;
}

/**
 * What the client, the stand-in and the router check directly; with the client's response
 * validation (`validateResponses`), every success body and stream item too.
 */
function roots(model: ModelWithoutValidated): Set<string> {
  const operations = [...model.endpoints, ...model.callbacks];
  const webhooks = model.webhooks;
  return new Set([
    ...operations.flatMap((o) => (o.paramsTypeName ? [o.paramsTypeName] : [])),
    ...referencedNames(
      ...operations.map((o) => o.body),
      webhooks?.payload,
      webhooks?.headers,
      ...(webhooks?.events ?? []).map((e) => e.payload),
      ...model.endpoints.flatMap((e) => checkedResponseTypes(e)),
    ),
  ]);
}

/**
 * The types the client's response validation checks of an endpoint: its JSON success body,
 * and each item of its stream (every item, or each named event's data).
 */
export function checkedResponseTypes(endpoint: Endpoint): TypeNode[] {
  return [endpoint.response, endpoint.streamResponse].flatMap((response) => {
    if (response?.stream?.events.length) return response.stream.events.map((e) => e.type);
    if (!response?.body || (response.kind !== "json" && !response.stream)) return [];
    return [response.body];
  });
}
