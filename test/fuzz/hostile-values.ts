/**
 * Hostile values for the validator fuzz test: odd leaves (NaN, -0, BigInt, symbols,
 * functions, huge sparse arrays, null-prototype objects, very long strings, deep nests),
 * `fc.anything()` deep and wide, and mutations of a valid value at random depths (replace,
 * delete, odd keys, cycles, a recursive shape pumped thousands of levels deep, long strings
 * pumped from a valid one).
 */
import fc from "fast-check";
import { anyKey, awkwardKeys, defineOwn, type Segment } from "./typed-values.ts";

/**
 * Names a big value for fast-check's report of a failing case, which would otherwise print
 * (or recurse through) all of it. A symbol key: validators and JSON do not see it.
 */
function labelled<T extends object>(value: T, label: string): T {
  Object.defineProperty(value, fc.toStringMethod, { value: () => label });
  return value;
}

/** A value nested `levels` deep, as arrays or objects. */
export function nested(levels: number, asObject: boolean): unknown {
  let value: object = {};
  for (let i = 0; i < levels; i++) value = asObject ? { a: value } : [value];
  return labelled(value, `nested(${levels}, ${asObject})`);
}

/**
 * An array of `length` with only a few entries, the last at its end. Written from the end, so
 * the engine keeps it as a dictionary instead of allocating `length` empty slots.
 */
function sparse(length: number, entries: readonly unknown[]): unknown[] {
  const a: unknown[] = [];
  a[length - 1] = "end";
  entries.forEach((v, i) => (a[Math.floor((length / (entries.length + 1)) * (i + 1))] = v));
  return labelled(a, `sparse(${length}, ${JSON.stringify(entries)})`);
}

/** Leaves no JSON body has, and extremes of those it has. */
const oddLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    NaN,
    Infinity,
    -Infinity,
    -0,
    1e309,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    2 ** 53 + 2,
    undefined,
    null,
    true,
    "",
  ),
  fc.bigInt(),
  fc.string({ maxLength: 4 }).map((d) => Symbol(d)),
  fc.constant(function secretSource() {
    return "a function's source must not appear in a message";
  }),
  fc.nat({ max: 2_000_000 }).map((n) => "a".repeat(n)),
  fc.string({ unit: "binary", maxLength: 50 }),
  fc
    .constantFrom(2 ** 32 - 1, 2 ** 24, 1_000_000)
    .chain((length) =>
      fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }).map((e) => sparse(length, e)),
    ),
  fc.nat({ max: 200_000 }).map((n) => labelled(new Array(n).fill(1), `Array(${n}).fill(1)`)),
  fc
    .array(fc.tuple(fc.constantFrom(...awkwardKeys), fc.jsonValue({ maxDepth: 1 })), {
      maxLength: 4,
    })
    .map((entries) => {
      const o = Object.create(null) as object;
      for (const [k, v] of entries) defineOwn(o, k, v);
      return o;
    }),
  fc.constantFrom(
    new Date(0),
    new Date(NaN),
    new Map([["a", 1]]),
    new Set([1]),
    /x/,
    new Uint8Array(3),
  ),
  fc.tuple(fc.nat({ max: 20_000 }), fc.boolean()).map(([n, o]) => nested(n, o)),
);

/** `fc.anything()`, deep and wide, with every kind of value it knows. */
export const anythingDeep: fc.Arbitrary<unknown> = fc.anything({
  key: anyKey,
  maxDepth: 8,
  maxKeys: 12,
  depthSize: "medium",
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

/** Any hostile value: an odd leaf, or anything. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(oddLeaf, anythingDeep);

/** One change to a value; `at` chooses the place (modulo the number of places). */
export type Mutation =
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "delete"; at: number }
  | { kind: "addKey"; at: number; key: string; value: unknown }
  | { kind: "cycle"; at: number; up: number }
  | { kind: "pump"; at: number; up: number; times: number }
  | { kind: "longString"; at: number; from: number; to: number; length: number; tail: string };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant("replace"), at: fc.nat(), value: hostileValue }),
    weight: 4,
  },
  fc.record({ kind: fc.constant("delete"), at: fc.nat() }),
  fc.record({ kind: fc.constant("addKey"), at: fc.nat(), key: anyKey, value: hostileValue }),
  fc.record({ kind: fc.constant("cycle"), at: fc.nat(), up: fc.nat() }),
  {
    arbitrary: fc.record({
      kind: fc.constant("pump"),
      at: fc.nat(),
      up: fc.nat(),
      times: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 40, max: 3_000 })),
    }),
    weight: 2,
  },
  fc.record({
    kind: fc.constant("longString"),
    at: fc.nat(),
    from: fc.nat(),
    to: fc.nat(),
    length: fc.integer({ min: 1_000, max: 1_000_000 }),
    tail: fc.string({ maxLength: 2 }),
  }),
);

/** A place in a value: the container holding it (none for the root), its key, and its path. */
export interface Place {
  parent: object | undefined;
  key: Segment;
  path: Segment[];
  /** The containers from the root down to the parent. */
  ancestors: object[];
  /** The named type the model gives this place, and each ancestor's. */
  name: string | undefined;
  ancestorNames: (string | undefined)[];
}

/** Bytes (a `binary` value) are leaves: a copy of their keys would no longer be bytes. */
const isBytes = (v: object) =>
  ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof Blob;
const isContainer = (v: unknown): v is object => typeof v === "object" && v !== null && !isBytes(v);

/** A copy of a tree of plain objects and arrays (the valid values), keeping null prototypes and `__proto__` keys. */
export function copyTree(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyTree);
  if (!isContainer(value)) return value;
  const copy: object = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  for (const key of Object.keys(value))
    defineOwn(copy, key, copyTree((value as Record<string, unknown>)[key]));
  return copy;
}

/**
 * Every place of `root` (in `box.root`), walking only the value's own tree: not into values a
 * mutation put in (`foreign`), not twice into one container, and not below 200 levels.
 */
function placesOf(
  box: { root: unknown },
  foreign: WeakSet<object>,
  typeName: (path: readonly Segment[]) => string | undefined,
): Place[] {
  const top: Place = {
    ...{ parent: undefined, key: "root", path: [], ancestors: [] },
    ...{ name: typeName([]), ancestorNames: [] },
  };
  const places = [top];
  const seen = new Set<object>();
  const walk = (value: unknown, at: Place) => {
    if (!isContainer(value) || foreign.has(value) || seen.has(value) || at.path.length > 200)
      return;
    seen.add(value);
    const ancestors = [...at.ancestors, value];
    const ancestorNames = [...at.ancestorNames, at.name];
    const keys: Segment[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
    for (const key of keys.slice(0, 50)) {
      const path = [...at.path, key];
      const place = { parent: value, key, path, ancestors, name: typeName(path), ancestorNames };
      places.push(place);
      walk((value as Record<Segment, unknown>)[key], place);
    }
  };
  walk(box.root, top);
  return places;
}

function read(box: { root: unknown }, place: Place): unknown {
  return place.parent === undefined
    ? box.root
    : (place.parent as Record<Segment, unknown>)[place.key];
}

/** Sets a key of an array or an object (an own property, even `__proto__`). */
function setKey(parent: object, key: Segment, value: unknown): void {
  if (Array.isArray(parent)) parent[key as number] = value;
  else defineOwn(parent, String(key), value);
}

function write(box: { root: unknown }, place: Place, value: unknown): void {
  if (place.parent === undefined) box.root = value;
  else setKey(place.parent, place.key, value);
}

/** What a mutation did, for the test to know where a problem must be found. */
export interface Applied {
  kind: Mutation["kind"];
  /** The path changed: the place, or for `addKey` the new key's. */
  path: Segment[];
  /** What is there now: the new value, `undefined` after a delete, the ancestor of a cycle. */
  value: unknown;
  /** For a pump: how many levels it added, and whether it repeats a named type inside itself. */
  pumped?: { levels: number; sameType: boolean };
}

/** A shallow copy of `from` and of every container along `segment` but the last, with `last` at its end. */
function copyAlong(from: object, segment: readonly Segment[], last: unknown): object {
  const copy = (v: object): object =>
    Array.isArray(v)
      ? [...v]
      : Object.defineProperties(
          Object.create(Object.getPrototypeOf(v)),
          Object.getOwnPropertyDescriptors(v),
        );
  const top = copy(from);
  let cursor: object = top;
  segment.forEach((key, i) => {
    const next = i === segment.length - 1 ? last : copy((cursor as Record<Segment, object>)[key]!);
    setKey(cursor, key, next);
    cursor = next as object;
  });
  return top;
}

/**
 * Applies the mutations in order to `box.root` (a copy the caller owns). `typeName` tells the
 * named type the model gives a path, so a pump prefers an ancestor of the same type: that
 * repeats a recursive shape (a transaction in its `adjust_transactions`) as deep as it goes.
 * Returns what each mutation did; one that found nothing to act on is left out.
 */
export function mutate(
  box: { root: unknown },
  mutations: readonly Mutation[],
  typeName: (path: readonly Segment[]) => string | undefined,
): Applied[] {
  const foreign = new WeakSet<object>();
  const put = (place: Place, value: unknown) => {
    if (isContainer(value)) foreign.add(value);
    write(box, place, value);
  };
  const applied: Applied[] = [];
  for (const m of mutations) {
    const places = placesOf(box, foreign, typeName);
    /** The ancestors of a place (a container) that have its named type. */
    const sameType = (p: Place) =>
      p.name === undefined || !isContainer(read(box, p))
        ? []
        : p.ancestorNames.flatMap((name, i) => (name === p.name ? [i] : []));
    // Half the pumps go where a named type sits inside itself, when there is such a place.
    const repeating =
      m.kind === "pump" && m.up % 2 === 0 ? places.filter((p) => sameType(p).length) : [];
    const choices = repeating.length ? repeating : places;
    const place = choices[m.at % choices.length]!;
    const current = read(box, place);
    let last: Applied | undefined;
    switch (m.kind) {
      case "replace":
        put(place, m.value);
        last = { kind: m.kind, path: place.path, value: m.value };
        break;
      case "delete":
        if (place.parent === undefined) box.root = undefined;
        else delete (place.parent as Record<Segment, unknown>)[place.key];
        last = { kind: m.kind, path: place.path, value: undefined };
        break;
      case "addKey":
        if (isContainer(current) && !Array.isArray(current) && !foreign.has(current)) {
          if (isContainer(m.value)) foreign.add(m.value);
          defineOwn(current, m.key, m.value);
          last = { kind: m.kind, path: [...place.path, m.key], value: m.value };
        }
        break;
      case "cycle":
        if (place.ancestors.length > 0) {
          const ancestor = place.ancestors[m.up % place.ancestors.length]!;
          write(box, place, ancestor);
          last = { kind: m.kind, path: place.path, value: ancestor };
        }
        break;
      case "pump": {
        if (place.ancestors.length === 0 || !isContainer(current)) break;
        const same = sameType(place);
        const from = same.length ? same[m.up % same.length]! : m.up % place.ancestors.length;
        const segment = place.path.slice(from);
        // At most about 6,000 levels: deep enough for any stack, cheap enough to build.
        const times = Math.min(m.times, Math.ceil(6_000 / segment.length));
        let value: unknown = current;
        for (let i = 0; i < times; i++) value = copyAlong(place.ancestors[from]!, segment, value);
        write(box, place, value);
        last = {
          kind: m.kind,
          path: place.path,
          value,
          pumped: { levels: times * segment.length, sameType: same.length > 0 },
        };
        break;
      }
      case "longString": {
        if (typeof current !== "string" || current.length === 0) break;
        const a = m.from % current.length;
        const b = a + 1 + (m.to % (current.length - a));
        const unit = current.slice(a, b);
        const repeated = unit.repeat(Math.ceil(m.length / unit.length));
        const value = current.slice(0, a) + repeated + current.slice(b) + m.tail;
        write(box, place, value);
        last = { kind: m.kind, path: place.path, value };
        break;
      }
    }
    if (last) applied.push(last);
  }
  return applied;
}
