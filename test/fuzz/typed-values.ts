/**
 * Values of a spec's types for the validator fuzz test, built from the model (IR), not from
 * the validators: the valid values of every named type and parameters interface (each
 * constraint met by construction, fields the type does not list added, null-prototype
 * objects), and what the model says about the value at a path, so a test knows where a
 * validator must find a problem.
 */
import fc from "fast-check";
import { DiagnosticBag } from "../../generator/diagnostics/diagnostic.ts";
import { createEmitContext } from "../../generator/emit/context.ts";
import { emitValidatorsFile } from "../../generator/emit/validators-file.ts";
import { buildModel } from "../../generator/ir/build-ir.ts";
import type { ApiModel, Constraints, Field, TypeNode } from "../../generator/ir/model.ts";
import { loadSpec } from "../../generator/load/load-spec.ts";

/** One generated validator and the type it checks. */
export interface Subject {
  /** The spec folder it comes from, relative to the repo root. */
  spec: string;
  /** The validator's export name: `validateCart`. */
  name: string;
  /** The named type it checks (none for a parameters interface). */
  typeName?: string;
  type: TypeNode;
}

/** A path into a value: field names and array indices. */
export type Segment = string | number;

/**
 * The model of a spec folder and its validators file as the generator emits it, with a
 * validator of every type (`validators: "all"`), not only those the package calls.
 */
export function loadModel(specDir: string): { model: ApiModel; validators: string } {
  const bag = new DiagnosticBag();
  const loaded = loadSpec(specDir, bag);
  bag.throwIfErrors();
  const model = buildModel(loaded.files, bag, { validators: "all" });
  bag.throwIfErrors();
  return {
    model,
    validators: emitValidatorsFile(createEmitContext(model, `${specDir}/`)).contents,
  };
}

/** A type node with no constraints and no docs, for the object a parameters interface is. */
function objectNode(fields: Field[], location: TypeNode["location"]): TypeNode {
  return {
    kind: "object",
    fields,
    open: false,
    nullable: false,
    constraints: {},
    docs: { notes: [] },
    location,
  };
}

/** Every validator the emitter writes for `model`: one per named type, one per parameters interface. */
export function subjectsOf(spec: string, model: ApiModel): Subject[] {
  const location = { file: spec, line: 1, col: 1 };
  return [
    ...model.types.map((t) => ({
      spec,
      name: `validate${t.name}`,
      typeName: t.name,
      type: t.type,
    })),
    ...model.paramsTypes.map((p) => ({
      spec,
      name: `validate${p.name}`,
      type: objectNode(
        p.params.map((param) => ({ ...param, location })),
        location,
      ),
    })),
  ];
}

/** Keys that have tripped up code walking objects: prototype names and keys that are no identifier. */
export const awkwardKeys = [
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "",
  "0",
  "-1",
  "a.b",
  "a b",
  '"]',
  "\\",
  "\u2028",
  "\ud800",
  "x".repeat(300),
];

/** Keys for maps and for fields a type does not list. */
export const anyKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...awkwardKeys),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 4 }),
);

/** An own data property, even for `__proto__` (a plain assignment would set the prototype). */
export function defineOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** An object of these entries, with the usual prototype or none. */
function objectOf(entries: readonly (readonly [string, unknown])[], nullPrototype: boolean) {
  const o: object = nullPrototype ? Object.create(null) : {};
  for (const [key, value] of entries) defineOwn(o, key, value);
  return o;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** RFC 3339 date-times: seconds and fraction optional, `Z` or an offset with or without its colon. */
const dateTime = fc
  .record({
    y: fc.integer({ min: 0, max: 9999 }),
    mo: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
    h: fc.integer({ min: 0, max: 23 }),
    mi: fc.integer({ min: 0, max: 59 }),
    s: fc.option(fc.integer({ min: 0, max: 59 })),
    frac: fc.option(fc.stringMatching(/^[0-9]{1,9}$/)),
    zone: fc.oneof(
      fc.constant("Z"),
      fc
        .tuple(
          fc.constantFrom("+", "-"),
          fc.integer({ min: 0, max: 23 }),
          fc.integer({ min: 0, max: 59 }),
          fc.boolean(),
        )
        .map(([sign, h, m, colon]) => `${sign}${pad(h, 2)}${colon ? ":" : ""}${pad(m, 2)}`),
    ),
  })
  .map(({ y, mo, d, h, mi, s, frac, zone }) => {
    const seconds = s === null ? "" : `:${pad(s, 2)}${frac === null ? "" : `.${frac}`}`;
    return `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}${seconds}${zone}`;
  });

/** Strings of the formats the runtime checks; any other format is documentation only. */
const formatStrings: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.oneof(
    fc.uuid(),
    fc.uuid().map((u) => u.toUpperCase()),
  ),
  "date-time": dateTime,
  "MM-DD-YYYY": fc
    .tuple(
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 28 }),
      fc.integer({ min: 0, max: 9999 }),
    )
    .map(([m, d, y]) => `${pad(m, 2)}-${pad(d, 2)}-${pad(y, 4)}`),
  "YYYY-MM": fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }))
    .map(([y, m]) => `${pad(y, 4)}-${pad(m, 2)}`),
  // a calendar date: every day a month has, the 29th of February in leap years
  date: fc
    .date({
      min: new Date("0000-01-01T00:00:00Z"),
      max: new Date("9999-12-31T00:00:00Z"),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().slice(0, 10)),
  uri: fc.webUrl({ withQueryParameters: true, withFragments: true }),
};

/** Any string: printable, any code unit (lone surrogates too), or long. */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.nat({ max: 20_000 }).map((n) => "é".repeat(n)),
);

function stringValues(c: Constraints): fc.Arbitrary<string> {
  const checked = c.format === undefined ? undefined : formatStrings[c.format];
  let base =
    checked ?? (c.pattern !== undefined ? fc.stringMatching(new RegExp(c.pattern)) : undefined);
  if (base === undefined) {
    const units = c.minLength !== undefined || c.maxLength !== undefined;
    base = units
      ? fc.string({
          minLength: c.minLength ?? 0,
          maxLength: Math.max(0, (c.maxLength ?? 64) - (c.prefix?.length ?? 0)),
        })
      : anyString;
  }
  const prefixed = c.prefix === undefined ? base : base.map((s) => c.prefix + s);
  return prefixed.filter(
    (s) =>
      (c.minLength === undefined || s.length >= c.minLength) &&
      (c.maxLength === undefined || s.length <= c.maxLength),
  );
}

function numberValues(integer: boolean, c: Constraints): fc.Arbitrary<number> {
  if (!integer)
    return fc.double({
      ...(c.minimum === undefined ? {} : { min: c.minimum }),
      ...(c.maximum === undefined ? {} : { max: c.maximum }),
      noNaN: true,
      noDefaultInfinity: true,
    });
  const min = Math.max(Math.ceil(c.minimum ?? -Infinity), Number.MIN_SAFE_INTEGER);
  const max = Math.min(Math.floor(c.maximum ?? Infinity), Number.MAX_SAFE_INTEGER);
  return fc.oneof(
    fc.integer({ min, max }),
    fc.constantFrom(min, max, Math.max(min, Math.min(max, 0))),
  );
}

/** A finite value of a primitive kind, for an open enum. */
function ofKind(kind: string): fc.Arbitrary<unknown> {
  if (kind === "string") return anyString;
  if (kind === "number") return fc.double({ noNaN: true, noDefaultInfinity: true });
  return fc.boolean();
}

/** How many arrays and objects deep a valid value goes; deeper, arrays and maps are empty and optional fields absent. */
const validDepth = 5;

/** Builds the arbitraries of valid values of the types of one model, sharing one per named type and depth. */
export class ValidValues {
  private readonly named = new Map<string, TypeNode>();
  private readonly memo = new Map<string, fc.Arbitrary<unknown>>();

  constructor(model: ApiModel) {
    for (const t of model.types) this.named.set(t.name, t.type);
  }

  /** The type a ref names. */
  resolve(node: TypeNode): TypeNode {
    let current = node;
    for (let hops = 0; current.kind === "ref"; hops++) {
      const next = this.named.get(current.name);
      if (!next || hops > 100) throw new Error(`cannot resolve ${current.name}`);
      current = next.nullable || !current.nullable ? next : { ...next, nullable: true };
    }
    return current;
  }

  /** Valid values of `node`, `depth` containers down. */
  of(node: TypeNode, depth = 0): fc.Arbitrary<unknown> {
    if (depth > validDepth + 30) throw new Error("a type with no finite value");
    if (node.kind === "ref") {
      const key = `${node.name}@${Math.min(depth, validDepth + 1)}:${node.nullable}`;
      let found = this.memo.get(key);
      if (!found) {
        this.memo.set(key, fc.constant(null)); // a placeholder while the type refers to itself
        found = this.of(this.resolve(node), depth);
        this.memo.set(key, found);
      }
      return found;
    }
    const shape = this.shape(node, depth);
    return node.nullable ? fc.option(shape, { nil: null, freq: 4 }) : shape;
  }

  private shape(node: TypeNode, depth: number): fc.Arbitrary<unknown> {
    const deep = depth >= validDepth;
    switch (node.kind) {
      case "primitive":
        if (node.name === "string") return stringValues(node.constraints);
        if (node.name === "boolean") return fc.boolean();
        if (node.name === "binary")
          return fc.oneof(
            fc.uint8Array({ maxLength: 8 }),
            fc.string({ maxLength: 8 }).map((text) => new Blob([text])),
          );
        return numberValues(node.name === "integer", node.constraints);
      case "unknown":
      case "param": // only in a generic type's body, which nothing validates
        return fc.jsonValue({ maxDepth: 2 });
      case "literal":
        return fc.constant(node.value);
      case "enum":
        return node.open
          ? fc.oneof(fc.constantFrom(...node.values), ofKind(typeof node.values[0]))
          : fc.constantFrom(...node.values);
      case "array":
        return fc.array(this.of(node.items, depth + 1), { maxLength: deep ? 0 : 3 });
      case "map":
        return fc
          .tuple(
            fc.array(fc.tuple(anyKey, this.of(node.values, depth + 1)), {
              maxLength: deep ? 0 : 3,
            }),
            fc.boolean(),
          )
          .map(([entries, bare]) => objectOf(entries, bare));
      case "object":
        return this.object(node.fields, depth);
      case "ref":
        return this.of(node, depth);
      case "union": {
        const cases = node.discriminator?.cases;
        const field = node.discriminator?.field ?? "";
        return fc.oneof(
          ...node.variants.map((v, i) =>
            cases
              ? this.of(v, depth).map((value) => ({
                  ...(value as object),
                  [field]: cases[i]!.value,
                }))
              : this.of(v, depth),
          ),
        );
      }
    }
  }

  /** Every required field, optional ones or not (absent, undefined or set), fields the type does not list, maybe no prototype. */
  private object(fields: readonly Field[], depth: number): fc.Arbitrary<unknown> {
    const deep = depth >= validDepth;
    const names = new Set(fields.map((f) => f.name));
    const members = fields.map((f) => {
      const value = this.of(f.type, depth + 1).map((v) => [f.name, v] as const);
      if (f.required) return value.map((entry) => [entry]);
      if (deep) return fc.constant([]);
      return fc.oneof(
        fc.constant([]),
        fc.constant([[f.name, undefined] as const]),
        value.map((entry) => [entry]),
      );
    });
    const extra = fc.array(fc.tuple(anyKey, fc.jsonValue({ maxDepth: 1 })), {
      maxLength: deep ? 0 : 2,
    });
    return fc
      .tuple(fc.tuple(...members), extra, fc.boolean())
      .map(([chosen, more, bare]) =>
        objectOf([...chosen.flat(), ...more.filter(([key]) => !names.has(key))], bare),
      );
  }

  /**
   * What the model says is at `path` below a value of `root`: its type and whether it is a
   * required field; undefined where no validator looks (`unknown`, fields the type does not
   * list, below a primitive).
   */
  at(root: TypeNode, path: readonly Segment[]): { type: TypeNode; required: boolean } | undefined {
    let type = root;
    let required = true;
    for (const segment of path) {
      const node = this.resolve(type);
      if (node.kind === "array" && typeof segment === "number") {
        type = node.items;
        required = true;
      } else if (node.kind === "map" && typeof segment === "string") {
        type = node.values;
        required = false;
      } else if (node.kind === "object" && typeof segment === "string") {
        const field = node.fields.find((f) => f.name === segment);
        if (!field) return undefined;
        type = field.type;
        required = field.required;
      } else {
        return undefined;
      }
    }
    return this.resolve(type).kind === "unknown" ? undefined : { type, required };
  }

  /** Whether a validator of `node` looks inside an array or object: not for `unknown` items or an object of no fields. */
  checksInside(node: TypeNode): boolean {
    const type = this.resolve(node);
    if (type.kind === "array") return this.resolve(type.items).kind !== "unknown";
    if (type.kind === "map") return this.resolve(type.values).kind !== "unknown";
    return type.kind === "object" && type.fields.length > 0;
  }

  /** Whether a value of `node` can hold a value of the named type `name` (itself, for a recursive type). */
  reaches(node: TypeNode, name: string, seen = new Set<string>()): boolean {
    switch (node.kind) {
      case "ref":
        if (node.name === name) return true;
        if (seen.has(node.name)) return false;
        seen.add(node.name);
        return this.reaches(this.resolve(node), name, seen);
      case "array":
        return this.reaches(node.items, name, seen);
      case "map":
        return this.reaches(node.values, name, seen);
      case "object":
        return node.fields.some((f) => this.reaches(f.type, name, seen));
      default:
        return false;
    }
  }

  /** Whether no value of `node`'s kind could be `value`: a validator of `node` must report it. */
  wrongKind(node: TypeNode, value: unknown): boolean {
    const type = this.resolve(node);
    if (value === null) return !type.nullable && type.kind !== "unknown";
    switch (type.kind) {
      case "unknown":
      case "param":
        return false;
      case "primitive":
        if (type.name === "string") return typeof value !== "string";
        if (type.name === "boolean") return typeof value !== "boolean";
        if (type.name === "binary") return !isBinaryInput(value);
        return (
          typeof value !== "number" ||
          !Number.isFinite(value) ||
          (type.name === "integer" && !Number.isInteger(value))
        );
      case "literal":
        return value !== type.value;
      case "enum":
        return type.open
          ? typeof value !== typeof type.values[0] ||
              (typeof value === "number" && !Number.isFinite(value))
          : !type.values.includes(value as string);
      case "array":
        return !Array.isArray(value);
      case "map":
      case "object":
        return typeof value !== "object" || Array.isArray(value);
      case "ref":
        return this.wrongKind(type, value);
      case "union":
        return type.variants.every((v) => this.wrongKind(v, value));
    }
  }
}

/**
 * Whether `value` is one of the forms a `binary` field takes (runtime `BinaryInput`; the
 * validator takes any view of bytes, as `Blob` does, not only a `Uint8Array`).
 */
function isBinaryInput(value: unknown): boolean {
  const bytes = (v: unknown) =>
    v instanceof Blob ||
    ArrayBuffer.isView(v) ||
    v instanceof ArrayBuffer ||
    v instanceof ReadableStream;
  if (bytes(value)) return true;
  return typeof value === "object" && value !== null && bytes((value as { data?: unknown }).data);
}
