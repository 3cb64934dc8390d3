/**
 * What the trigger sends for each callback and webhook event: the spec's method, path,
 * fixed headers, the keys and signature the service puts on its calls, and the shapes of
 * the request body and the two answers.
 */
import type { ApiModel, Callback, Credential, HeaderSpec } from "./model.ts";
import type { StandInModel, TriggerEvent } from "./stand-in-model.ts";
import type { TypeLookup } from "./callback-routing.ts";
import { shapeOf, shapeTableOf } from "./stand-in-shapes.ts";

/** Header credentials (not signatures) of an operation, which the service sends along. */
function keyHeaders(auth: readonly string[], credentials: readonly Credential[]) {
  return auth.flatMap((id) => {
    const c = credentials.find((x) => x.id === id);
    return c?.placement === "header" && c.header
      ? [{ header: c.header, credential: id, ...(c.scheme ? { scheme: c.scheme } : {}) }]
      : [];
  });
}

const fixedHeaders = (headers: readonly HeaderSpec[]): [string, string][] =>
  headers.flatMap((h) => (h.value !== undefined ? [[h.name, h.value] as [string, string]] : []));

function callbackEvent(c: Callback, model: ApiModel, types: TypeLookup): TriggerEvent {
  return {
    name: c.event,
    kind: "callback",
    method: c.method,
    path: c.path,
    trailing: c.params
      .filter((p) => p.placement === "trailing")
      .map((p) => ({ name: p.name, shape: shapeOf(p.type, types) })),
    headers: fixedHeaders(c.headers),
    ...(c.routing.form ? { form: true as const } : {}),
    keyHeaders: keyHeaders(c.auth, model.credentials),
    ...(c.routing.signatureHeader ? { signatureHeader: c.routing.signatureHeader } : {}),
    // copies: the stand-in's table is data of its own, never an alias of the routing's objects
    ...(c.routing.signatureScheme
      ? { signatureScheme: structuredClone(c.routing.signatureScheme) }
      : {}),
    ...(c.routing.replay ? { replay: structuredClone(c.routing.replay) } : {}),
    ...(c.body ? { body: shapeOf(c.body, types) } : {}),
    ...(c.success ? { success: shapeOf(c.success, types) } : {}),
    ...(c.failure ? { failure: shapeOf(c.failure, types) } : {}),
  };
}

/** The trigger's events: every callback, then each webhook event (or the one `webhook` payload). */
export function buildTriggerEvents(
  model: ApiModel,
): Pick<StandInModel, "events"> & { types: StandInModel["eventTypes"] } {
  const types: TypeLookup = new Map(model.types.map((t) => [t.name, t] as const));
  const events = model.callbacks.map((c) => callbackEvent(c, model, types));
  const hooks = model.webhooks;
  if (hooks) {
    const common = {
      kind: "webhook" as const,
      method: "POST" as const,
      path: "",
      trailing: [],
      headers: [["Content-Type", "application/json"]] as [string, string][],
      keyHeaders: [],
      ...(hooks.signatureHeader ? { signatureHeader: hooks.signatureHeader } : {}),
      ...(hooks.signatureScheme ? { signatureScheme: structuredClone(hooks.signatureScheme) } : {}),
      ...(hooks.replay ? { replay: structuredClone(hooks.replay) } : {}),
      ...(hooks.eventSelector?.in === "header" ? { eventHeader: hooks.eventSelector.name } : {}),
      ...(hooks.headers?.kind === "object"
        ? {
            deliveryHeaders: hooks.headers.fields.map((f) => ({
              name: f.name,
              shape: shapeOf(f.type, types),
            })),
          }
        : {}),
    };
    if (hooks.events.length === 0 && hooks.payload)
      events.push({ ...common, name: "webhook", body: shapeOf(hooks.payload, types) });
    for (const e of hooks.events)
      events.push({
        ...common,
        name: e.name,
        body: shapeOf(e.payload, types),
        ...(e.success ? { success: shapeOf(e.success, types) } : {}),
        ...(e.answerAs === "text" ? { successText: true as const } : {}),
      });
  }
  const roots = [
    ...model.callbacks.flatMap((c) => [
      c.body,
      c.success,
      c.failure,
      ...c.params.map((p) => p.type),
    ]),
    hooks?.payload,
    hooks?.headers,
    ...(hooks?.events.flatMap((e) => [e.payload, e.success]) ?? []),
  ];
  return { events, types: shapeTableOf(model.types, roots) };
}
