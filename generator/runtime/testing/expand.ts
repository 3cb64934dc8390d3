/**
 * Expandable fields in the stand-in's answers: the object where the request listed the
 * field's path in its expand list, the id where it did not, as the API itself answers.
 */
import { sample, type Random } from "./sample.js";
import type { Shape, ShapeTable } from "./shape.js";

/** An endpoint's expand list (query parameter or body field) and each path its answer can expand. */
export interface RouteExpand {
  in: "query" | "body";
  name: string;
  paths: ExpandablePath[];
}

/**
 * One expandable field: its path, dotted from the body (arrays add no step); `id` and
 * `object` its two shapes; `inner` the expandable fields of the object, ids when it is sent.
 */
export interface ExpandablePath {
  path: string;
  id: Shape;
  object: Shape;
  inner?: ExpandablePath[];
}

/** The paths a request asked to expand: the strings of its list, wherever the route reads it. */
export function askedPaths(
  expand: RouteExpand,
  params: Record<string, unknown>,
  body: unknown,
): Set<string> {
  const list =
    expand.in === "query"
      ? params[expand.name]
      : body !== null && typeof body === "object"
        ? (body as Record<string, unknown>)[expand.name]
        : undefined;
  return new Set(Array.isArray(list) ? list.filter((p) => typeof p === "string") : []);
}

/**
 * `value` (a sampled answer, changed in place) with each expandable field present made the
 * object where its path is asked for (its own expandable fields ids), and the id where it is
 * not: an object's own `id` when it has a string one (so `cus_…` where Customer's id has that
 * prefix), else a sampled id. A null field stays null.
 */
export function applyExpansion(
  value: unknown,
  paths: readonly ExpandablePath[],
  asked: ReadonlySet<string>,
  types: ShapeTable,
  random: Random,
): void {
  const none: ReadonlySet<string> = new Set();
  for (const { path, id, object, inner } of paths) {
    const steps = path.split(".");
    const visit = (node: unknown, i: number): void => {
      if (Array.isArray(node)) return node.forEach((item) => visit(item, i));
      if (node === null || typeof node !== "object") return;
      const record = node as Record<string, unknown>;
      const key = steps[i]!;
      if (!Object.prototype.hasOwnProperty.call(record, key)) return;
      if (i < steps.length - 1) return visit(record[key], i + 1);
      const field = record[key];
      if (field === null || field === undefined) return;
      if (asked.has(path)) {
        const made = typeof field === "string" ? sample(object, types, random) : field;
        if (inner) applyExpansion(made, inner, none, types, random);
        record[key] = made;
        return;
      }
      const whole = typeof field === "string" ? sample(object, types, random) : field;
      const own =
        whole !== null && typeof whole === "object" ? (whole as { id?: unknown }).id : undefined;
      record[key] =
        typeof own === "string"
          ? own
          : typeof field === "string"
            ? field
            : sample(id, types, random);
    };
    visit(value, 0);
  }
}
