/**
 * Builds IR type nodes from spec type nodes (shorthand strings or mappings), then
 * resolves what needs every named type first: references and `extends`.
 */
import { suggestion } from "../diagnostics/diagnostic.ts";
import { hasNestedQuantifier, patternLengthConflict, patternSyntaxError } from "./check-pattern.ts";
import type { DataPath, SpecFile } from "../load/spec-file.ts";
import { boundConflicts } from "./bounds.ts";
import { isRecord, subjectOf, type BuildContext } from "./build-context.ts";
import type { Decl } from "./merge.ts";
import {
  constraintKeys,
  type Constraints,
  type Docs,
  type Field,
  type FieldAccess,
  type GapNote,
  type GenericType,
  type Literal,
  type NamedType,
  type SourceLocation,
  type TypeNode,
  type TypeShape,
} from "./model.ts";
import { parseTypeExpr, TypeExprError, type ParsedTypeExpr, type TypeExpr } from "./type-expr.ts";
import { checkTaggedUnions, unionShape, type PendingTagged } from "./build-unions.ts";
import { GenericInstances, type GenericScope } from "./build-generics.ts";
import { resolveType } from "./callback-routing.ts";

type Data = Record<string, unknown>;

interface PendingExtends {
  node: TypeNode & { kind: "object" };
  base: string;
  omit: string[];
  file: SpecFile;
  path: DataPath;
}

/** The facets of an array's count and items, which only an array takes. */
const arrayFacets = ["minItems", "maxItems", "uniqueItems"] as const;
/** The facets of a map's or an object's count of entries, which only those take. */
const entryFacets = ["minProperties", "maxProperties"] as const;

/** A reference to a named type, checked once every type is known. */
interface PendingRef {
  name: string;
  location: SourceLocation;
  /** The number of type arguments given (`List<Customer>`: 1). */
  arity: number;
  /** The generic type whose body holds the reference, if one does. */
  scope?: GenericScope;
}

export class TypeBuilder {
  private readonly refs: PendingRef[] = [];
  private readonly pendingExtends: PendingExtends[] = [];
  /** The pending `extends` of each object node, so a base is found without a search per type. */
  private readonly pendingByNode = new Map<TypeNode, PendingExtends>();
  private readonly named = new Map<string, NamedType>();
  /** The named types in declaration order; `resolve` adds the instantiations of generic types. */
  private readonly list: NamedType[] = [];
  private readonly pendingTagged: PendingTagged[] = [];
  /** The generic types (`typeParams`), by name. */
  readonly generics = new Map<string, GenericType>();
  /** The generic type whose body is being built: its parameters are types there. */
  private scope: GenericScope | undefined;
  /** Every generic type's scope, for the checks of its parameters. */
  private readonly scopes: GenericScope[] = [];
  private readonly instances: GenericInstances;
  /** Whether any field is `readOnly` or `writeOnly`: when none is, there are no views to make. */
  accessMarked = false;

  constructor(readonly ctx: BuildContext) {
    this.instances = new GenericInstances(ctx, this.named, this.list, this.generics);
  }

  /** Records a reference to a named type (a tagged union's variant), checked by `resolve`. */
  reference(name: string, location: SourceLocation): void {
    if (this.scope?.params.includes(name)) {
      this.notConcrete(name, "a variant of a tagged union, which is a named object type", location);
      return;
    }
    this.refs.push({ name, location, arity: 0 });
  }

  /** A type parameter where a named type is required (`extends: T`, a tagged variant). */
  private notConcrete(param: string, use: string, location: SourceLocation): void {
    this.ctx.bag.report(
      "generic-param-not-concrete",
      { param, generic: this.scope?.name ?? "", use },
      location,
    );
  }

  /**
   * Every named type, in declaration order; references and extends resolved by `resolve`,
   * which also appends the instantiations of generic types to this same list.
   */
  buildNamed(decls: readonly Decl<unknown>[]): NamedType[] {
    for (const decl of decls) {
      const data = decl.value;
      if (isRecord(data) && Array.isArray(data.typeParams)) {
        this.buildGeneric(decl, data.typeParams.map(String));
        continue;
      }
      const named = {
        name: decl.name,
        type: this.node(decl.file, decl.path, decl.value),
        location: decl.file.locate(decl.path, "key"),
      };
      this.named.set(decl.name, named);
      this.list.push(named);
    }
    return this.list;
  }

  /**
   * What a node stands for through named aliases (`ApiKey: string` gives the `string` node),
   * for rules about what a body is; a reference to an unknown name stays as it is.
   */
  aliasTarget(node: TypeNode): TypeNode {
    return resolveType(node, this.named);
  }

  /** A generic type: its body built with its parameters in scope. */
  private buildGeneric(decl: Decl<unknown>, params: string[]): void {
    const location = decl.file.locate(decl.path, "key");
    this.scope = { name: decl.name, params, file: decl.file, path: decl.path };
    this.scopes.push(this.scope);
    const { typeParams: _, ...body } = decl.value as Data;
    try {
      const type = this.node(decl.file, decl.path, body);
      this.generics.set(decl.name, { name: decl.name, params, type, location });
    } finally {
      this.scope = undefined;
    }
  }

  /** Names a use of a generic type must not take: the parameters interfaces. */
  reserveNames(names: Iterable<string>): void {
    this.instances.reserve(names);
  }

  /**
   * Checks every reference and flattens every `extends`, then makes a named type for each
   * use of a generic type; call once all types are built.
   */
  resolve(): void {
    for (const ref of this.refs) this.checkRef(ref);
    this.instances.checkParams(this.scopes);
    const done = new Set<PendingExtends>();
    const inProgress = new Set<PendingExtends>();
    const flatten = (pending: PendingExtends): void => {
      if (done.has(pending)) return;
      if (inProgress.has(pending)) {
        this.ctx.bag.report(
          "type-conflict",
          { detail: `extends ${pending.base} forms a cycle` },
          pending.file.locate([...pending.path, "extends"]),
        );
        return;
      }
      inProgress.add(pending);
      this.flattenOne(pending, flatten);
      inProgress.delete(pending);
      done.add(pending);
    };
    // Before flattening: a variant's tag becomes its own field, which then wins over an
    // inherited one (the base is omitted from it), and a type extending a variant inherits it.
    checkTaggedUnions(this.pendingTagged, this.named, this.ctx);
    this.pendingExtends.forEach(flatten);
    // After flattening: an instantiation copies its generic's body, inherited fields included.
    this.instances.instantiateAll();
  }

  /**
   * A reference names a declared type with no type arguments, or a generic type with one per
   * parameter; inside a generic type's body, a name that is neither is reported with the
   * parameters among the suggestions.
   */
  private checkRef(ref: PendingRef): void {
    const generic = this.generics.get(ref.name);
    if (generic) {
      if (ref.arity !== generic.params.length)
        this.ctx.bag.report(
          "generic-arity",
          {
            name: ref.name,
            expected: `${generic.params.length} type argument${generic.params.length === 1 ? "" : "s"} (${ref.name}<${generic.params.join(", ")}>)`,
            given: String(ref.arity),
          },
          ref.location,
        );
      return;
    }
    if (this.named.has(ref.name)) {
      if (ref.arity > 0)
        this.ctx.bag.report(
          "generic-arity",
          {
            name: ref.name,
            expected: "no type arguments (it has no typeParams)",
            given: String(ref.arity),
          },
          ref.location,
        );
      return;
    }
    const known = [...this.named.keys(), ...this.generics.keys()];
    if (ref.scope)
      this.ctx.bag.report(
        "generic-unknown-param",
        {
          name: ref.name,
          generic: ref.scope.name,
          params: ref.scope.params.join(", "),
          hint: suggestion(ref.name, [...ref.scope.params, ...known]),
        },
        ref.location,
      );
    else
      this.ctx.bag.report(
        "unresolved-ref",
        // `String` is most likely the built-in string, written as in Java or C#
        { name: ref.name, hint: suggestion(ref.name, [...builtInTypeNames, ...known]) },
        ref.location,
      );
  }

  private flattenOne(pending: PendingExtends, flatten: (p: PendingExtends) => void): void {
    const base = this.named.get(pending.base);
    if (!base) return; // reported as unresolved-ref
    if (base.type.kind !== "object") {
      this.ctx.bag.report(
        "extends-not-object",
        { name: pending.path.at(-1) ?? "", base: pending.base },
        pending.file.locate([...pending.path, "extends"]),
      );
      return;
    }
    const basePending = this.pendingByNode.get(base.type);
    if (basePending) flatten(basePending);
    const baseFields = base.type.fields;
    pending.omit.forEach((name, i) => {
      if (!baseFields.some((f) => f.name === name)) {
        this.ctx.bag.report(
          "omit-unknown-field",
          { field: name, base: pending.base },
          pending.file.locate([...pending.path, "omit", i]),
        );
      }
    });
    const own = new Set(pending.node.fields.map((f) => f.name));
    const inherited = baseFields
      .filter((f) => !pending.omit.includes(f.name) && !own.has(f.name))
      .map((f) => ({ ...f, inheritedFrom: f.inheritedFrom ?? pending.base }));
    const without = baseFields
      .filter((f) => pending.omit.includes(f.name) || own.has(f.name))
      .map((f) => f.name);
    pending.node.fields = [...inherited, ...pending.node.fields];
    pending.node.open ||= base.type.open;
    pending.node.base = { name: pending.base, without };
  }

  /** One type node: a shorthand string or a mapping with facets. */
  node(file: SpecFile, path: DataPath, value: unknown): TypeNode {
    const location = file.locate(path);
    if (typeof value === "string") {
      const parsed = this.expr(file, path, value);
      const shape = parsed
        ? this.shapeOfExpr(parsed.type, file, path, undefined, path)
        : unknownShape();
      const docs: Docs = { notes: parsed ? this.unspecifiedNotes(parsed.type, file, path) : [] };
      return asNode(shape, parsed?.nullable ?? false, noConstraints, docs, location);
    }
    const data = (isRecord(value) ? value : {}) as Data;
    // A generic type's own `typeParams` is taken off before its body is built.
    if (data.typeParams !== undefined)
      this.conflict(
        file,
        [...path, "typeParams"],
        "only a named type takes typeParams; a field, parameter or body uses a generic type with its arguments, as List<Customer>",
      );
    const docs = this.ctx.docs(file, path, data);
    const constraints = readConstraints(data);
    for (const { lowKey, low, relation, highKey, high } of boundConflicts(constraints))
      this.ctx.bag.report(
        "range-conflict",
        { low: `${lowKey} ${low}`, relation, high: `${highKey} ${high}` },
        file.locate([...path, lowKey]),
      );
    if (typeof constraints.pattern === "string")
      this.checkPattern(file, path, constraints.pattern, constraints);
    const { shape, nullable, expr } = this.shapeOfMapping(file, path, data);
    const leftOut = [
      ...this.facetsOfAnotherKind(file, path, shape, data),
      ...this.containerFacetsLeftOut(file, path, shape, data),
    ];
    const kept = leftOut.length ? withoutKeys(constraints, leftOut) : constraints;
    if (expr) docs.notes.push(...this.unspecifiedNotes(expr, file, [...path, "type"]));
    // a field's node is built at [..., "fields", name]; anywhere else the keys have no field to mark
    if (path.at(-2) !== "fields")
      for (const key of ["readOnly", "writeOnly"] as const)
        if (data[key] !== undefined)
          this.ctx.bag.report(
            "access-not-field",
            { key, place: subjectOf(path) },
            file.locate([...path, key], "key"),
          );
    if (data.default !== undefined) this.checkValue(file, path, shape, "default", data.default);
    if (data.example !== undefined) this.checkValue(file, path, shape, "example", data.example);
    // The shape itself becomes the node: a pending `extends` refers to it.
    return asNode(shape, nullable || data.nullable === true, kept, docs, location);
  }

  /**
   * The node's facets of a value's text or number, left out for being beside an array, a map
   * or an object (`type: string[]` beside `maxLength: 128`, as the Mailgun and Notion trials
   * wrote their tag and block limits): no check holds them there, and the OpenAPI document
   * would carry them where they mean nothing. A warning at each, naming where an item's facet
   * goes (a warning, not an error: a spec that generated before still does, and the limit was
   * never held). An array's own facets (`minItems`, `maxItems`, `uniqueItems`) and a map's or
   * an object's count of entries are theirs (countsOfAnotherKind tells them apart).
   */
  private containerFacetsLeftOut(
    file: SpecFile,
    path: DataPath,
    shape: TypeShape,
    data: Data,
  ): readonly string[] {
    if (shape.kind !== "array" && shape.kind !== "map" && shape.kind !== "object") return [];
    const own: readonly string[] = [...arrayFacets, ...entryFacets];
    const given = constraintKeys.filter((key) => data[key] !== undefined && !own.includes(key));
    const inner = shape.kind === "array" ? "items" : shape.kind === "map" ? "values" : undefined;
    for (const key of given)
      this.ctx.bag.report(
        "facet-on-container",
        {
          key,
          kind: shape.kind === "map" ? "a map" : `an ${shape.kind}`,
          hint: inner
            ? `; to hold each of its ${inner} to it, write them with it (${inner}: { type: ..., ${key}: ... })`
            : "",
        },
        file.locate([...path, key], "key"),
      );
    return given;
  }

  /**
   * A warning at each facet of a text beside a number or a boolean (`type: number` with
   * `maxLength: 32` and a `pattern`, as the PayPal trial wrote an amount that PayPal sends as a
   * string), and of a number beside a boolean: no check holds it, and nothing said so; they
   * are left out of the model (and so of the OpenAPI document). Returns their keys.
   */
  private facetsOfAnotherKind(
    file: SpecFile,
    path: DataPath,
    shape: TypeShape,
    data: Data,
  ): readonly string[] {
    const counts = this.countsOfAnotherKind(file, path, shape, data);
    if (shape.kind !== "primitive") return counts;
    const name = shape.name;
    const textFacets = ["pattern", "prefix", "minLength", "maxLength"] as const;
    const numberFacets = [
      "minimum",
      "maximum",
      "exclusiveMinimum",
      "exclusiveMaximum",
      "multipleOf",
    ] as const;
    const misplaced =
      name === "integer" || name === "number"
        ? textFacets
        : name === "string" || name === "binary"
          ? numberFacets
          : [...textFacets, ...numberFacets];
    const given = misplaced.filter((k) => data[k] !== undefined);
    for (const key of given)
      this.ctx.bag.report(
        "facet-of-another-kind",
        {
          key,
          facetKind: (numberFacets as readonly string[]).includes(key) ? "a number" : "a text",
          type: name,
          hint:
            name === "integer" || name === "number"
              ? "; a number the API sends as text is `type: string` with it"
              : "",
        },
        file.locate([...path, key], "key"),
      );
    return [...counts, ...given];
  }

  /**
   * A warning at each facet of an array (`minItems`, `maxItems`, `uniqueItems`) beside a type
   * that is not an array, and of a map's or an object's entries (`minProperties`,
   * `maxProperties`) beside one that is neither: no check holds it there. A named type takes
   * it where it is declared (a reference's own facets are not checked). Returns their keys.
   */
  private countsOfAnotherKind(
    file: SpecFile,
    path: DataPath,
    shape: TypeShape,
    data: Data,
  ): readonly string[] {
    const misplaced: readonly (keyof Data & string)[] =
      shape.kind === "array"
        ? entryFacets
        : shape.kind === "map" || shape.kind === "object"
          ? arrayFacets
          : [...arrayFacets, ...entryFacets];
    const given = misplaced.filter((key) => data[key] !== undefined && data[key] !== false);
    for (const key of given)
      this.ctx.bag.report(
        "facet-of-another-kind",
        {
          key,
          facetKind:
            key === "uniqueItems"
              ? "an array's items"
              : key === "minProperties" || key === "maxProperties"
                ? "an object's count of entries"
                : "an array's count",
          type:
            shape.kind === "ref"
              ? `a reference to ${shape.name}`
              : shape.kind === "map"
                ? "a map"
                : shapeWords(shape),
          hint: shape.kind === "ref" ? `; write it where ${shape.name} is declared` : "",
        },
        file.locate([...path, key], "key"),
      );
    return given;
  }

  /**
   * A `default:` or `example:` must be a value of its type, where the type says which values
   * there are (a primitive, an enum that is not open, a literal) or what kind they are (an
   * array, an object); named types are not followed (they may not be resolved yet), nor are
   * an object's fields. The stand-in answers with the example, so
   * one of another type would be an answer the package's own checks refuse. Bytes have no
   * JSON value; their example may show their text.
   */
  private checkValue(
    file: SpecFile,
    path: DataPath,
    shape: TypeShape,
    key: "default" | "example",
    value: unknown,
  ): void {
    if (value === null) return; // a nullable's value; `nullable` is read after the shape
    const fits =
      shape.kind === "primitive"
        ? shape.name === "integer"
          ? Number.isInteger(value)
          : shape.name === "number"
            ? typeof value === "number"
            : shape.name === "binary" && key === "example"
              ? typeof value === "string"
              : typeof value === shape.name
        : shape.kind === "enum"
          ? shape.open || shape.values.includes(value as Literal)
          : shape.kind === "literal"
            ? shape.value === value
            : shape.kind === "array"
              ? Array.isArray(value)
              : shape.kind === "object" || shape.kind === "map"
                ? isRecord(value)
                : true;
    if (!fits)
      this.conflict(
        file,
        [...path, key],
        `${key} ${JSON.stringify(value)} is not a value of the type (${shapeWords(shape)})`,
      );
  }

  /**
   * A pattern must compile, and some string of the node's lengths must match it; one prone
   * to catastrophic backtracking gets a warning.
   */
  private checkPattern(
    file: SpecFile,
    node: DataPath,
    pattern: string,
    lengths: Pick<Constraints, "minLength" | "maxLength">,
  ): void {
    const path = [...node, "pattern"];
    const syntax = patternSyntaxError(pattern);
    const conflict =
      syntax === undefined
        ? patternLengthConflict(pattern, lengths.minLength, lengths.maxLength)
        : undefined;
    if (syntax !== undefined)
      this.ctx.bag.report(
        "pattern-invalid",
        { pattern: JSON.stringify(pattern), detail: syntax },
        file.locate(path),
      );
    else if (conflict !== undefined)
      this.ctx.bag.report("pattern-length-conflict", { detail: conflict }, file.locate(path));
    else if (hasNestedQuantifier(pattern))
      this.ctx.bag.report(
        "pattern-backtracking",
        { pattern: JSON.stringify(pattern) },
        file.locate(path),
      );
  }

  private shapeOfMapping(
    file: SpecFile,
    path: DataPath,
    data: Data,
  ): { shape: TypeShape; nullable: boolean; expr?: TypeExpr } {
    const parsed =
      typeof data.type === "string" ? this.expr(file, [...path, "type"], data.type) : undefined;
    const nullable = parsed?.nullable ?? false;
    if (data.union !== undefined)
      return { shape: unionShape(this, file, path, data, this.pendingTagged), nullable };
    if (data.fields !== undefined || data.extends !== undefined) {
      if (parsed && parsed.type.kind !== "openObject") {
        this.conflict(
          file,
          [...path, "type"],
          `a type with fields is an object, not ${String(data.type)}`,
        );
      }
      return { shape: this.objectShape(file, path, data), nullable };
    }
    if (data.enum !== undefined)
      return { shape: this.enumShape(file, path, data, parsed?.type), nullable };
    if (data.const !== undefined) {
      const kind = typeof data.const === "number" ? "integer" : typeof data.const;
      if (
        parsed &&
        !(
          parsed.type.kind === "primitive" &&
          (parsed.type.name === kind || (parsed.type.name === "number" && kind === "integer"))
        )
      ) {
        this.conflict(
          file,
          [...path, "type"],
          `const ${JSON.stringify(data.const)} is ${kind === "integer" ? "an integer" : `a ${kind}`} but type is ${String(data.type)}`,
        );
      }
      return { shape: { kind: "literal", value: data.const as Literal }, nullable };
    }
    if (parsed)
      return {
        shape: this.shapeOfExpr(parsed.type, file, path, data, [...path, "type"]),
        nullable,
        expr: parsed.type,
      };
    if (data.items !== undefined)
      return {
        shape: this.shapeOfExpr({ kind: "container", container: "array" }, file, path, data, [
          ...path,
          "type",
        ]),
        nullable,
      };
    if (data.values !== undefined)
      return {
        shape: this.shapeOfExpr({ kind: "container", container: "map" }, file, path, data, [
          ...path,
          "type",
        ]),
        nullable,
      };
    if (data.open === true) return { shape: { kind: "object", fields: [], open: true }, nullable };
    // a type written but not read (`type: bool`) is reported where it is written, once
    if (data.type !== undefined) return { shape: unknownShape(), nullable };
    this.ctx.bag.report(
      "schema-missing-key",
      { key: "type (or fields, enum, const, items, values)" },
      file.locate(path, "key"),
    );
    return { shape: unknownShape(), nullable };
  }

  /** A field's `readOnly` or `writeOnly`; both is reported, and neither is kept. */
  private accessOf(
    file: SpecFile,
    path: DataPath,
    name: string,
    data: Data,
  ): FieldAccess | undefined {
    if (data.readOnly === true && data.writeOnly === true) {
      this.ctx.bag.report("access-both", { field: name }, file.locate([...path, "writeOnly"]));
      return undefined;
    }
    this.accessMarked ||= data.readOnly === true || data.writeOnly === true;
    return data.readOnly === true ? "readOnly" : data.writeOnly === true ? "writeOnly" : undefined;
  }

  private objectShape(file: SpecFile, path: DataPath, data: Data): TypeShape {
    const fieldData = (isRecord(data.fields) ? data.fields : {}) as Data;
    const fields: Field[] = Object.entries(fieldData).map(([name, value]) => {
      const fieldPath = [...path, "fields", name];
      const type = this.node(file, fieldPath, value);
      const required = isRecord(value) && value.required === true;
      const location = file.locate(fieldPath, "key");
      // two literals rather than a spread of `{}`: an object less per field
      const field: Field =
        isRecord(value) && value.expandable === true
          ? { name, type, required, expandable: true, location }
          : { name, type, required, location };
      const access = isRecord(value) ? this.accessOf(file, fieldPath, name, value) : undefined;
      if (access) field.access = access;
      return field;
    });
    const node = { kind: "object", fields, open: data.open === true } as TypeNode & {
      kind: "object";
    };
    if (typeof data.extends === "string" && this.scope?.params.includes(data.extends)) {
      this.notConcrete(
        data.extends,
        "the base of `extends`, which is a named object type",
        file.locate([...path, "extends"]),
      );
    } else if (typeof data.extends === "string") {
      this.refs.push({
        name: data.extends,
        location: file.locate([...path, "extends"]),
        arity: 0,
        ...(this.scope ? { scope: this.scope } : {}),
      });
      const pending: PendingExtends = {
        node,
        base: data.extends,
        omit: (data.omit as string[] | undefined) ?? [],
        file,
        path,
      };
      this.pendingExtends.push(pending);
      // A node has at most one pending extends (objectShape makes a new node each time).
      this.pendingByNode.set(node, pending);
    }
    return node;
  }

  private enumShape(
    file: SpecFile,
    path: DataPath,
    data: Data,
    declared: TypeExpr | undefined,
  ): TypeShape {
    const values = data.enum as Literal[];
    const kinds = [...new Set(values.map((v) => (typeof v === "number" ? "integer" : typeof v)))];
    if (kinds.length > 1)
      this.ctx.bag.report(
        "enum-mixed-types",
        { types: kinds.join(", ") },
        file.locate([...path, "enum"]),
      );
    if (
      declared &&
      !(
        declared.kind === "primitive" &&
        (declared.name === kinds[0] || (declared.name === "number" && kinds[0] === "integer"))
      )
    ) {
      this.conflict(
        file,
        [...path, "type"],
        `enum values are ${kinds.join(", ")} but type is ${String(data.type)}`,
      );
    }
    return { kind: "enum", values, open: data.open === true };
  }

  /** `exprPath` is the scalar holding the shorthand, for the column of a reference in it. */
  private shapeOfExpr(
    expr: TypeExpr,
    file: SpecFile,
    path: DataPath,
    data: Data | undefined,
    exprPath: DataPath,
  ): TypeShape {
    switch (expr.kind) {
      case "primitive":
        return { kind: "primitive", name: expr.name };
      case "unknown":
        return { kind: "unknown", unspecified: expr.unspecified };
      case "openObject":
        return { kind: "object", fields: [], open: true };
      case "ref":
        return this.refShape(expr, file, path, exprPath);
      case "array":
        return { kind: "array", items: this.exprNode(expr.items, file, path, exprPath) };
      case "map":
        return { kind: "map", values: this.exprNode(expr.values, file, path, exprPath) };
      case "union":
        return {
          kind: "union",
          variants: expr.members.map((m) => this.exprNode(m, file, path, exprPath)),
          open: false,
        };
      case "container": {
        const key = expr.container === "array" ? "items" : "values";
        if (data?.[key] === undefined) {
          this.ctx.bag.report("schema-missing-key", { key }, file.locate(path, "key"));
          return unknownShape();
        }
        const inner = this.node(file, [...path, key], data[key]);
        return expr.container === "array"
          ? { kind: "array", items: inner }
          : { kind: "map", values: inner };
      }
      default: {
        const unhandled: never = expr;
        throw new Error(`unhandled type expression ${JSON.stringify(unhandled)}`);
      }
    }
  }

  /**
   * A shorthand that says `unspecified` names a value whose type the source does not
   * show: that is a gap, recorded on the node that holds the shorthand.
   */
  private unspecifiedNotes(expr: TypeExpr, file: SpecFile, exprPath: DataPath): GapNote[] {
    const text = unspecifiedText(expr);
    return text
      ? [
          this.ctx.gap(
            "untyped",
            text,
            subjectOf(exprPath.at(-1) === "type" ? exprPath.slice(0, -1) : exprPath),
            file.locate(exprPath),
          ),
        ]
      : [];
  }

  /**
   * A name in a shorthand: a type parameter inside a generic type's body, else a named type,
   * or a use of a generic type with its arguments (`List<Customer>`), instantiated by
   * `resolve`.
   */
  private refShape(
    expr: TypeExpr & { kind: "ref" },
    file: SpecFile,
    path: DataPath,
    exprPath: DataPath,
  ): TypeShape {
    const location = file.locate(exprPath, "value", expr.offset);
    if (this.scope?.params.includes(expr.name)) {
      if (expr.args) this.notConcrete(expr.name, "a generic type given type arguments", location);
      return { kind: "param", name: expr.name };
    }
    const args = expr.args?.map((arg) => this.argNode(arg, file, path, exprPath));
    this.refs.push({
      name: expr.name,
      location,
      arity: args?.length ?? 0,
      ...(this.scope ? { scope: this.scope } : {}),
    });
    if (!args) return { kind: "ref", name: expr.name };
    const shape = { kind: "ref" as const, name: expr.name, generic: { name: expr.name, args } };
    this.instances.use(shape, location, this.scope !== undefined);
    return shape;
  }

  /** A type argument of a generic type's use: a whole shorthand type, `| null` included. */
  private argNode(
    arg: ParsedTypeExpr,
    file: SpecFile,
    path: DataPath,
    exprPath: DataPath,
  ): TypeNode {
    return Object.assign(this.shapeOfExpr(arg.type, file, path, undefined, exprPath), {
      nullable: arg.nullable,
      constraints: {},
      docs: { notes: [] },
      location: file.locate(exprPath),
    });
  }

  /**
   * An element of a shorthand (`Money` in `Money[]`): no facets of its own. Object.assign
   * keeps the shape's identity: a use of a generic type is named in place by `resolve`.
   */
  private exprNode(expr: TypeExpr, file: SpecFile, path: DataPath, exprPath: DataPath): TypeNode {
    return Object.assign(this.shapeOfExpr(expr, file, path, undefined, exprPath), {
      nullable: false,
      constraints: {},
      docs: { notes: [] },
      location: file.locate(exprPath),
    });
  }

  private expr(file: SpecFile, path: DataPath, text: string) {
    try {
      return parseTypeExpr(text);
    } catch (error) {
      if (!(error instanceof TypeExprError)) throw error;
      this.ctx.bag.report(
        "type-expr-syntax",
        { expr: JSON.stringify(text), detail: error.detail },
        file.locate(path, "value", error.offset),
      );
      return undefined;
    }
  }

  private conflict(file: SpecFile, path: DataPath, detail: string): void {
    this.ctx.bag.report("type-conflict", { detail }, file.locate(path));
  }
}

/** What an `unspecified` inside a shorthand leaves unknown, or nothing. */
function unspecifiedText(expr: TypeExpr, depth = ""): string | undefined {
  switch (expr.kind) {
    case "unknown":
      return expr.unspecified ? `${depth ? `${depth} type` : "Type"} not shown.` : undefined;
    case "array":
      return unspecifiedText(expr.items, depth ? `${depth} item` : "Item");
    case "map":
      return unspecifiedText(expr.values, depth ? `${depth} value` : "Value");
    case "union":
      for (const member of expr.members) {
        const text = unspecifiedText(member, depth);
        if (text) return text;
      }
      return undefined;
    case "ref":
      for (const arg of expr.args ?? []) {
        const text = unspecifiedText(arg.type, depth ? `${depth} type argument` : "Type argument");
        if (text) return text;
      }
      return undefined;
    case "primitive":
    case "openObject":
    case "container":
      return undefined;
    default: {
      const unhandled: never = expr;
      throw new Error(`unhandled type expression ${JSON.stringify(unhandled)}`);
    }
  }
}

function unknownShape(): TypeShape {
  return { kind: "unknown", unspecified: false };
}

function readConstraints(data: Data): Constraints {
  let constraints: Record<string, unknown> | undefined;
  // `uniqueItems: false` says what an array is anyway
  for (const key of constraintKeys)
    if (data[key] !== undefined && data[key] !== false) (constraints ??= {})[key] = data[key];
  return (constraints as Constraints | undefined) ?? noConstraints;
}

/**
 * The constraints of a node that has none, one object for all of them: the IR is read-only
 * past its build (a generic's instance copies its node's constraints), and most nodes have
 * none (GitHub's document: tens of thousands of empty objects kept to the end of the run).
 */
const noConstraints: Constraints = Object.freeze({});

/**
 * `shape` made a type node in place, its facets set one by one in the order Object.assign
 * set them (the same object, without the literal of facets made to copy them from).
 */
function asNode(
  shape: TypeShape,
  nullable: boolean,
  constraints: Constraints,
  docs: Docs,
  location: SourceLocation,
): TypeNode {
  const node = shape as TypeNode;
  node.nullable = nullable;
  node.constraints = constraints;
  node.docs = docs;
  node.location = location;
  return node;
}

/** The built-in types a spec writes in lower case. */
const builtInTypeNames = ["string", "integer", "number", "boolean", "binary", "unknown", "object"];

/** What a type takes, in a message: `integer`, `one of a, b`, `the value "x"`, `an array`. */
function shapeWords(shape: TypeShape): string {
  switch (shape.kind) {
    case "primitive":
      return shape.name;
    case "enum":
      return `one of ${shape.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "literal":
      return `the value ${JSON.stringify(shape.value)}`;
    case "array":
      return "an array";
    case "object":
    case "map":
      return "an object";
    default:
      return shape.kind;
  }
}

/** `constraints` without `keys`. */
function withoutKeys(constraints: Constraints, keys: readonly string[]): Constraints {
  return Object.fromEntries(
    Object.entries(constraints).filter(([key]) => !keys.includes(key)),
  ) as Constraints;
}
