/**
 * What the stand-in remembers, as the spec implies: records a create endpoint adds and a
 * delete endpoint removes (with the id prefix and the uniqueness rule of the spec), and the
 * state a lifecycle step leaves a resource in.
 */
import { hashText, seeded, token, type Random } from "./sample.js";
import type { Collection, Refusal, RouteState, StandInTable } from "./table.js";

/** What the stand-in remembers: records of collections by id, and lifecycle states by resource. */
export interface StandInState {
  collections: Record<string, { id: string; body: unknown }[]>;
  lifecycles: Record<string, Record<string, string>>;
}

/** The outcome of a route's state step: fields to add to the answer, or a refusal. */
export type StateStep = { made?: Record<string, unknown> } | { refusal: Refusal };

/** JSON text with object keys sorted, so equal configurations compare equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** The stand-in's memory for a table; `reset` forgets everything and restarts the id sequence. */
export class Memory {
  private state: StandInState = { collections: {}, lifecycles: {} };
  private ids: Random = seeded(0);

  constructor(
    private readonly table: StandInTable,
    private readonly seed: number,
  ) {
    this.reset();
  }

  /** Forgets every record and state. */
  reset(): void {
    this.state = { collections: {}, lifecycles: {} };
    for (const c of this.table.collections) this.state.collections[c.name] = [];
    this.ids = seeded(hashText("ids", this.seed));
  }

  /** A copy of what is remembered. */
  snapshot(): StandInState {
    return JSON.parse(JSON.stringify(this.state)) as StandInState;
  }

  /** Applies a route's state step to a request that passed every check. */
  apply(step: RouteState, params: Record<string, unknown>, body: unknown): StateStep {
    if (step.kind === "transition") {
      (this.state.lifecycles[step.lifecycle] ??= {})[String(params[step.param])] = step.to;
      return {};
    }
    const collection = this.table.collections.find((c) => c.name === step.collection);
    if (!collection) return {};
    const records = (this.state.collections[collection.name] ??= []);
    if (step.kind === "create") return this.create(collection, records, body);
    const at = records.findIndex((r) => r.id === params[step.param]);
    if (at < 0) return { refusal: collection.notFound };
    records.splice(at, 1);
    return {};
  }

  /** A new record with a prefixed id, unless the spec's uniqueness rule refuses it. */
  private create(
    collection: Collection,
    records: { id: string; body: unknown }[],
    body: unknown,
  ): StateStep {
    const config = canonical(body);
    if (collection.duplicate && records.some((r) => canonical(r.body) === config))
      return { refusal: collection.duplicate };
    const id = `${collection.idPrefix}${token(this.ids, 16)}`;
    records.push({ id, body });
    return { made: { [collection.idField]: id } };
  }
}
