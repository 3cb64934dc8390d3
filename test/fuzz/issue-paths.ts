/**
 * Reading an issue's path back: its segments after the root name, and the value they lead
 * to in the checked value, own property by own property; and the kind of a value as the
 * runtime's messages name it. Written apart from the runtime, so a test checks it.
 */
import type { Segment } from "./typed-values.ts";

const isContainer = (v: unknown): v is object => typeof v === "object" && v !== null;

const identifierStep = /\.([A-Za-z_$][A-Za-z0-9_$]*)/y;
const indexStep = /\[(0|[1-9][0-9]*)\]/y;
const keyStep = /\[("(?:[^"\\]|\\.)*")\]/y;
/** `<card>`: the variant of a tagged union the value was checked as; names no property. */
const variantStep = /<[^<>]+>/y;

/** The segments of an issue's path after its root name; throws if it is not a path this runtime writes. */
export function parsePath(path: string, root: string): Segment[] {
  if (!path.startsWith(root)) throw new Error(`${JSON.stringify(path)} does not start at ${root}`);
  const segments: Segment[] = [];
  let i = root.length;
  while (i < path.length) {
    const step = [identifierStep, indexStep, keyStep, variantStep].find((re) => {
      re.lastIndex = i;
      return re.test(path);
    });
    if (!step) throw new Error(`cannot read ${JSON.stringify(path.slice(i, i + 40))} in ${path}`);
    step.lastIndex = i;
    const [text, inner] = step.exec(path)!;
    i += text.length;
    if (step === variantStep) continue;
    segments.push(
      step === indexStep
        ? Number(inner)
        : step === keyStep
          ? (JSON.parse(inner!) as string)
          : inner!,
    );
  }
  return segments;
}

/**
 * The value at `segments` in `root`, following own properties only: `found` false when a
 * step has no such own property (the last step of a required field may be missing).
 */
export function resolvePath(
  root: unknown,
  segments: readonly Segment[],
): { found: boolean; value: unknown; parent: unknown } {
  let value = root;
  let parent: unknown = undefined;
  for (const segment of segments) {
    if (!isContainer(value)) return { found: false, value: undefined, parent };
    parent = value;
    if (typeof segment === "number") {
      if (!Array.isArray(value) || segment >= value.length)
        return { found: false, value: undefined, parent };
    } else if (Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, segment)) {
      return { found: false, value: undefined, parent };
    }
    value = (value as Record<Segment, unknown>)[segment];
  }
  return { found: true, value, parent };
}

/** The kind of a value as the runtime's messages name it (`not a string`, `not number NaN`). */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" || typeof value === "boolean")
    return `${typeof value} ${String(value)}`;
  if (value === undefined) return "undefined";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
