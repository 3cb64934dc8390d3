/**
 * Where the parts of a converted document went and came from: a Swagger 2.0 document is read
 * as the OpenAPI 3.0 document it converts to (swagger2.ts); its local references follow the
 * sections that moved (`movedRef`), and every place a note or an error shows must still be a
 * place in the file the user has (`PointerMap`).
 */

/** Where each of Swagger 2.0's sections went in OpenAPI 3.0, for local references. */
const movedSections: [from: string, to: string][] = [
  ["#/definitions/", "#/components/schemas/"],
  ["#/parameters/", "#/components/parameters/"],
  ["#/responses/", "#/components/responses/"],
];

/** A local `$ref` into a moved section, pointed at where the section went; others as they are. */
export function movedRef(ref: string): string {
  for (const [from, to] of movedSections)
    if (ref.startsWith(from)) return to + ref.slice(from.length);
  return ref;
}

/**
 * Each moved subtree, recorded once (`#/components/schemas/Pet` came from `#/definitions/Pet`);
 * a pointer below it keeps the rest of its path. Pointers under nothing recorded are where
 * they were.
 */
export class PointerMap {
  /** Converted pointer -> the original pointer of the same value. */
  private readonly moved = new Map<string, string>();

  /** Records that the value at `converted` is (or is made from) the one at `original`. */
  record(converted: string, original: string): void {
    if (converted !== original) this.moved.set(converted, original);
  }

  /** The pointer in the original document of the value at `converted`. */
  original(converted: string): string {
    if (this.moved.size === 0) return converted;
    const exact = this.moved.get(converted);
    if (exact !== undefined) return exact;
    // the longest recorded prefix wins; the rest of the path is kept as it is
    for (let cut = converted.lastIndexOf("/"); cut > 0; cut = converted.lastIndexOf("/", cut - 1)) {
      const prefix = cut === 1 ? "#" : converted.slice(0, cut);
      const original = this.moved.get(prefix);
      if (original !== undefined) return original + converted.slice(cut);
    }
    return converted;
  }
}
