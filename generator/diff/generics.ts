/**
 * Changes of generic types (`List<T>`): one declared, removed, or given other parameters is
 * a change of the package's exported types. A change in a generic type's body is reported
 * at each of its uses (`types.List<Customer>.url`, compare.ts); the body of one with no use
 * on either side is compared on its own.
 */
import { refText } from "../ir/generics.ts";
import type { ApiModel, NamedType, TypeNode } from "../ir/model.ts";

/** Where the generic changes go: compare.ts's list, and its type comparison. */
interface Sink {
  add(subject: string, description: string, level: "minor", breaks?: "callers"[]): void;
}

/** What a named type is compared as: its name, or for a use of a generic type that use (`List<Customer>`). */
export function typeKey(t: NamedType): string {
  if (!t.instance) return t.name;
  return refText({
    kind: "ref",
    name: t.name,
    generic: t.instance,
    nullable: false,
    constraints: {},
    docs: { notes: [] },
    location: t.location,
  });
}

export function diffGenerics(
  out: Sink,
  before: ApiModel,
  after: ApiModel,
  diffBody: (subject: string, before: TypeNode, after: TypeNode) => void,
): void {
  const used = (model: ApiModel, name: string) =>
    model.types.some((t) => t.instance?.name === name);
  for (const g of before.generics) {
    const next = after.generics.find((n) => n.name === g.name);
    const subject = `types.${g.name}<${g.params.join(", ")}>`;
    if (!next) {
      out.add(subject, "generic type removed (it is exported)", "minor", ["callers"]);
      continue;
    }
    if (next.params.join(",") !== g.params.join(",")) {
      out.add(
        subject,
        `type parameters <${g.params.join(", ")}> -> <${next.params.join(", ")}>`,
        "minor",
        next.params.length !== g.params.length ? ["callers"] : [],
      );
      continue;
    }
    if (!used(before, g.name) && !used(after, g.name)) diffBody(subject, g.type, next.type);
  }
  for (const g of after.generics.filter((n) => !before.generics.some((o) => o.name === n.name)))
    out.add(`types.${g.name}<${g.params.join(", ")}>`, "generic type added", "minor");
}
