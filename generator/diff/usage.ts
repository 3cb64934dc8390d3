/**
 * Who reads and who writes each named type: callers of the client write request bodies and
 * parameters and read responses; implementers of the callback handlers read what the API
 * sends them and write the answers. A change breaks whoever reads or writes in the way it
 * affects, so the diff classifies every change against these usages.
 */
import type { ApiModel, TypeNode } from "../ir/model.ts";
import { referencedNames } from "../ir/walk.ts";

export type Audience = "callers" | "implementers";
export type Access = "reads" | "writes";

/** A place a type is used: by whom and how. */
export interface Usage {
  audience: Audience;
  access: Access;
}

export const usageKey = (u: Usage) => `${u.audience}:${u.access}`;

/** Every usage of every named type reachable from the operations of the model. */
export function typeUsages(model: ApiModel): Map<string, Usage[]> {
  const byName = new Map(model.types.map((t) => [t.name, t]));
  const usages = new Map<string, Usage[]>();
  const visit = (name: string, usage: Usage) => {
    const list = usages.get(name) ?? [];
    if (list.some((u) => usageKey(u) === usageKey(usage))) return;
    usages.set(name, [...list, usage]);
    const named = byName.get(name);
    // the spec's type: the names it refers to, not its writable view's
    referencedNames(named?.source ?? named?.type).forEach((n) => visit(n, usage));
  };
  const root = (node: TypeNode | undefined, usage: Usage) => {
    referencedNames(node).forEach((n) => visit(n, usage));
  };
  for (const e of model.endpoints) {
    root(e.bodySource ?? e.body, { audience: "callers", access: "writes" });
    e.params.forEach((p) => root(p.type, { audience: "callers", access: "writes" }));
    root(e.response.body, { audience: "callers", access: "reads" });
  }
  for (const c of model.callbacks) {
    root(c.body, { audience: "implementers", access: "reads" });
    c.params.forEach((p) => root(p.type, { audience: "implementers", access: "reads" }));
    root(c.success, { audience: "implementers", access: "writes" });
    root(c.failure, { audience: "implementers", access: "writes" });
  }
  // webhook payloads are read by the handlers, like callback bodies
  root(model.webhooks?.payload, { audience: "implementers", access: "reads" });
  root(model.webhooks?.headers, { audience: "implementers", access: "reads" });
  for (const e of model.webhooks?.events ?? []) {
    root(e.payload, { audience: "implementers", access: "reads" });
    root(e.success, { audience: "implementers", access: "writes" });
  }
  return usages;
}

/** Usages of an inline (unnamed) position, for changes made directly on an operation. */
export function positionUsage(
  kind:
    | "endpoint-body"
    | "endpoint-param"
    | "endpoint-response"
    | "callback-body"
    | "callback-param"
    | "callback-answer",
): Usage {
  switch (kind) {
    case "endpoint-body":
    case "endpoint-param":
      return { audience: "callers", access: "writes" };
    case "endpoint-response":
      return { audience: "callers", access: "reads" };
    case "callback-body":
    case "callback-param":
      return { audience: "implementers", access: "reads" };
    case "callback-answer":
      return { audience: "implementers", access: "writes" };
    default: {
      const unhandled: never = kind;
      throw new Error(`unhandled position ${String(unhandled)}`);
    }
  }
}
