/**
 * The uses of generic types, made into named types once every type is known: `List<Customer>`
 * becomes the named type `ListCustomer`, `List`'s body with `Customer` in place of `T`, so
 * that every later stage reads an ordinary named type; the use keeps `List<Customer>` for
 * the TypeScript output. One named type per distinct use, in the order uses are met.
 */
import type { DataPath, SpecFile } from "../load/spec-file.ts";
import type { BuildContext } from "./build-context.ts";
import { instanceBaseName, mapType, shorthandOf } from "./generics.ts";
import type {
  Docs,
  GenericType,
  GenericUse,
  NamedType,
  SourceLocation,
  TypeNode,
} from "./model.ts";
import { runtimeExportNames } from "./reserved-names.ts";

/** The generic type whose body is being built, and its parameters. */
export interface GenericScope {
  name: string;
  params: string[];
  file: SpecFile;
  path: DataPath;
}

/** The shape of a use of a generic type, named in place once instantiated. */
type GenericRefShape = { kind: "ref"; name: string; generic: GenericUse };

interface PendingUse {
  shape: GenericRefShape;
  location: SourceLocation;
  /** Inside a generic type's body: instantiated with that body, not on its own. */
  inGeneric: boolean;
}

/**
 * How deep instantiations may nest, one made while making another: a generic type whose
 * body uses itself with a bigger argument (`Nest<T>` holding `Nest<T[]>`) would make new
 * types without end.
 */
export const maxGenericDepth = 16;
/** How many instantiations a spec may make in all. */
export const maxInstances = 10_000;

export class GenericInstances {
  private readonly uses: PendingUse[] = [];
  /** The instantiation of each use, by its shorthand (`List<Customer>`). */
  private readonly byKey = new Map<string, string>();
  private readonly reserved = new Set<string>();
  private depth = 0;
  private stopped = false;

  constructor(
    private readonly ctx: BuildContext,
    private readonly named: Map<string, NamedType>,
    private readonly list: NamedType[],
    private readonly generics: ReadonlyMap<string, GenericType>,
  ) {}

  /** Records a use of a generic type, named by `instantiateAll`. */
  use(shape: GenericRefShape, location: SourceLocation, inGeneric: boolean): void {
    this.uses.push({ shape, location, inGeneric });
  }

  /** Names no instantiation may take. */
  reserve(names: Iterable<string>): void {
    for (const name of names) this.reserved.add(name);
  }

  /** A parameter named like a type would hide it inside the body: refused, at the parameter. */
  checkParams(scopes: readonly GenericScope[]): void {
    for (const scope of scopes)
      scope.params.forEach((param, i) => {
        if (this.named.has(param) || this.generics.has(param))
          this.ctx.bag.report(
            "generic-param-shadows",
            { param, generic: scope.name },
            scope.file.locate([...scope.path, "typeParams", i]),
          );
      });
  }

  /** Names every use outside a generic body (uses inside one are made with its instantiation). */
  instantiateAll(): void {
    for (const use of this.uses) {
      if (use.inGeneric) continue;
      const { generic } = use.shape;
      const name = this.instantiate(generic.name, generic.args, use.location);
      if (name) use.shape.name = name;
    }
  }

  /** The named type of `name<args>`, made the first time; undefined when it cannot be. */
  private instantiate(
    name: string,
    args: readonly TypeNode[],
    location: SourceLocation,
  ): string | undefined {
    const generic = this.generics.get(name);
    if (!generic || generic.params.length !== args.length) return undefined; // reported
    const key = shorthandOf({
      kind: "ref",
      name,
      generic: { name, args: [...args] },
      nullable: false,
      constraints: {},
      docs: { notes: [] },
      location,
    });
    const known = this.byKey.get(key);
    if (known) return known;
    if (this.depth >= maxGenericDepth || this.byKey.size >= maxInstances) {
      if (!this.stopped)
        this.ctx.bag.report(
          "generic-expansion",
          { use: key, maxDepth: String(maxGenericDepth), max: String(maxInstances) },
          location,
        );
      this.stopped = true;
      return undefined;
    }
    const instanceName = this.freeName(instanceBaseName(name, args));
    this.byKey.set(key, instanceName);
    const instance: NamedType = {
      name: instanceName,
      type: generic.type, // replaced below; a use of itself in the body finds the name first
      location: generic.location,
      instance: { name, args: [...args] },
    };
    this.named.set(instanceName, instance);
    this.list.push(instance);
    const byParam = new Map(generic.params.map((p, i) => [p, args[i]!]));
    this.depth++;
    try {
      instance.type = this.substitute(generic.type, byParam);
    } finally {
      this.depth--;
    }
    return instanceName;
  }

  /**
   * A copy of `node` with each parameter replaced by its argument and each use of a generic
   * type in it instantiated. A parameter's own docs (a field's description) win over the
   * argument's, and `T | null` stays nullable.
   */
  private substitute(node: TypeNode, byParam: ReadonlyMap<string, TypeNode>): TypeNode {
    return mapType(node, (n) => {
      if (n.kind === "param") {
        const arg = byParam.get(n.name);
        if (!arg) return undefined;
        const copy = this.substitute(arg, new Map());
        return {
          ...copy,
          nullable: copy.nullable || n.nullable,
          constraints: { ...copy.constraints, ...n.constraints },
          docs: hasDocs(n.docs) ? n.docs : copy.docs,
          location: n.location,
        };
      }
      if (n.kind === "ref" && n.generic) {
        const args = n.generic.args.map((a) => this.substitute(a, byParam));
        const name = this.instantiate(n.generic.name, args, n.location) ?? n.generic.name;
        return {
          kind: "ref",
          name,
          generic: { name: n.generic.name, args },
          nullable: n.nullable,
          constraints: { ...n.constraints },
          docs: n.docs,
          location: n.location,
        };
      }
      return undefined;
    });
  }

  /** `base`, or `base_2`, `base_3`, ... when a type, a parameters interface or the runtime has it. */
  private freeName(base: string): string {
    const taken = (name: string) =>
      this.named.has(name) ||
      this.generics.has(name) ||
      this.reserved.has(name) ||
      runtimeExportNames.has(name);
    let name = base;
    for (let i = 2; taken(name); i++) name = `${base}_${i}`;
    return name;
  }
}

function hasDocs(docs: Docs): boolean {
  return (
    docs.description !== undefined ||
    docs.notes.length > 0 ||
    docs.deprecated !== undefined ||
    docs.example !== undefined ||
    docs.default !== undefined
  );
}
