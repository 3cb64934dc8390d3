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

/**
 * JSON text with object keys sorted, so equal configurations compare equal. Built with a
 * stack of its own, not by recursion: a body may be nested as deep as its size allows.
 */
export function canonical(value: unknown): string {
  const out: string[] = [];
  // what is left to write, last first: a value, or text as it is
  const todo: ({ text: string } | { value: unknown })[] = [{ value }];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    if ("text" in next) {
      out.push(next.text);
      continue;
    }
    const item = next.value;
    if (item === null || typeof item !== "object") {
      out.push(JSON.stringify(item) ?? "null");
      continue;
    }
    const list = Array.isArray(item);
    const keys = list ? [] : Object.keys(item).sort();
    const entries: ({ text: string } | { value: unknown })[] = [{ text: list ? "[" : "{" }];
    const values = list
      ? (item as unknown[])
      : keys.map((k) => (item as Record<string, unknown>)[k]);
    values.forEach((v, i) => {
      if (i > 0) entries.push({ text: "," });
      if (!list) entries.push({ text: `${JSON.stringify(keys[i])}:` });
      entries.push({ value: v });
    });
    entries.push({ text: list ? "]" : "}" });
    for (let i = entries.length - 1; i >= 0; i--) todo.push(entries[i]!);
  }
  return out.join("");
}

/** A record of a collection: its id, the body that made it, as parsed and as received. */
interface StoredRecord {
  id: string;
  body: unknown;
  /** The body's JSON text, from which `snapshot` makes its copy (JSON.parse has no depth limit). */
  text: string | undefined;
  /** `canonical(body)`, worked out once. */
  key: string;
}

/** The stand-in's memory for a table; `reset` forgets everything and restarts the id sequence. */
export class Memory {
  private records: Record<string, StoredRecord[]> = {};
  private lifecycles: Record<string, Record<string, string>> = {};
  private ids: Random = seeded(0);

  constructor(
    private readonly table: StandInTable,
    private readonly seed: number,
  ) {
    this.reset();
  }

  /** Forgets every record and state. */
  reset(): void {
    this.records = {};
    this.lifecycles = {};
    for (const c of this.table.collections) this.records[c.name] = [];
    this.ids = seeded(hashText("ids", this.seed));
  }

  /** A copy of what is remembered; each body copied from its text, however deep it is. */
  snapshot(): StandInState {
    const collections: StandInState["collections"] = {};
    for (const [name, records] of Object.entries(this.records))
      collections[name] = records.map(({ id, text }) =>
        text === undefined ? { id, body: undefined } : { id, body: JSON.parse(text) as unknown },
      );
    const lifecycles: StandInState["lifecycles"] = {};
    for (const [name, states] of Object.entries(this.lifecycles)) lifecycles[name] = { ...states };
    return { collections, lifecycles };
  }

  /**
   * Applies a route's state step to a request that passed every check; `text` is the JSON
   * text `body` was parsed from.
   */
  apply(
    step: RouteState,
    params: Record<string, unknown>,
    body: unknown,
    text: string | undefined,
  ): StateStep {
    if (step.kind === "transition") {
      (this.lifecycles[step.lifecycle] ??= {})[String(params[step.param])] = step.to;
      return {};
    }
    const collection = this.table.collections.find((c) => c.name === step.collection);
    if (!collection) return {};
    const records = (this.records[collection.name] ??= []);
    if (step.kind === "create") return this.create(collection, records, body, text);
    const at = records.findIndex((r) => r.id === params[step.param]);
    if (at < 0) return { refusal: collection.notFound };
    records.splice(at, 1);
    return {};
  }

  /** A new record with a prefixed id, unless the spec's uniqueness rule refuses it. */
  private create(
    collection: Collection,
    records: StoredRecord[],
    body: unknown,
    text: string | undefined,
  ): StateStep {
    const key = canonical(body);
    if (collection.duplicate && records.some((r) => r.key === key))
      return { refusal: collection.duplicate };
    const id = `${collection.idPrefix}${token(this.ids, 16)}`;
    records.push({ id, body, text, key });
    return { made: { [collection.idField]: id } };
  }
}
