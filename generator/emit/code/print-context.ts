/**
 * What printing one file keeps track of: the file's own path, and every symbol of another
 * file its nodes refer to, which become its imports.
 */
import type { Ref } from "./nodes.ts";

/** One imported name and whether every use of it is as a type. */
export interface ImportedName {
  name: string;
  isType: boolean;
}

export class PrintContext {
  /** Imports by the output path of their module, names in first-use order. */
  readonly imports = new Map<string, Map<string, ImportedName>>();
  /** Which module each imported name comes from, to refuse two symbols of one name. */
  private readonly origins = new Map<string, string>();

  constructor(
    /** Output path of the file being printed, e.g. `src/client.ts`. */
    readonly path: string,
  ) {}

  /** The import specifier of another output file, relative to this one: `./types.js`. */
  specifier(module: string): string {
    const from = this.path.split("/").slice(0, -1);
    const to = module.replace(/\.ts$/, ".js").split("/");
    let common = 0;
    while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
    const up = from.length - common;
    const rest = to.slice(common).join("/");
    return up === 0 ? `./${rest}` : `${"../".repeat(up)}${rest}`;
  }

  /** The name of `ref`, recording its import when another file declares it. */
  use(ref: Ref): string {
    if (ref.module === undefined || ref.module === this.path) return ref.name;
    const origin = this.origins.get(ref.name);
    if (origin !== undefined && origin !== ref.module)
      throw new Error(
        `${this.path}: ${ref.name} is imported from both ${origin} and ${ref.module}`,
      );
    this.origins.set(ref.name, ref.module);
    let names = this.imports.get(ref.module);
    if (!names) this.imports.set(ref.module, (names = new Map()));
    const known = names.get(ref.name);
    if (known) known.isType &&= ref.isType;
    else names.set(ref.name, { name: ref.name, isType: ref.isType });
    return ref.name;
  }
}
