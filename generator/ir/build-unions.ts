/**
 * Unions written as mappings (`union:` a list, or a mapping of tag values to named types
 * with `discriminator:`), and the checks of tagged variants that need every named type.
 */
import type { DataPath, SpecFile } from "../load/spec-file.ts";
import { isRecord, subjectOf, type BuildContext } from "./build-context.ts";
import type { Field, NamedType, SourceLocation, TypeNode, TypeShape } from "./model.ts";

/** What the union builder needs of the type builder. */
export interface UnionHost {
  readonly ctx: BuildContext;
  node(file: SpecFile, path: DataPath, value: unknown): TypeNode;
  /** Records a reference to a named type, checked once every type is known. */
  reference(name: string, location: SourceLocation): void;
}

/** A tagged union waiting for every named type, to check its variants. */
export interface PendingTagged {
  shape: TypeShape & { kind: "union" };
  subject: string;
  file: SpecFile;
  path: DataPath;
}

/** Keys that say what kind of type a mapping is: a union has none of them. */
const otherKinds = ["type", "fields", "extends", "enum", "const", "items", "values"] as const;

/**
 * The shape of a mapping with `union`: untagged for a list, tagged for a mapping of tag
 * values. A tagged union is queued on `pending` for checkTaggedUnions.
 */
export function unionShape(
  host: UnionHost,
  file: SpecFile,
  path: DataPath,
  data: Record<string, unknown>,
  pending: PendingTagged[],
): TypeShape {
  const conflict = (key: string, detail: string) =>
    host.ctx.bag.report("type-conflict", { detail }, file.locate([...path, key], "key"));
  const other = otherKinds.find((key) => data[key] !== undefined);
  if (other) conflict(other, `a union lists its members in \`union\` and has no ${other}`);
  const union = data.union;
  if (Array.isArray(union)) {
    if (data.discriminator !== undefined)
      conflict(
        "discriminator",
        "a discriminator needs `union` as a mapping of tag values to named types",
      );
    // `open` lets a tagged union take tags it does not list; a list of members has no tag to
    // take (a trial of Twitch's API set it and saw nothing change)
    if (data.open === true)
      host.ctx.bag.report("union-open-untagged", {}, file.locate([...path, "open"], "key"));
    const variants = union.map((value, i) => host.node(file, [...path, "union", i], value));
    return { kind: "union", variants, open: false };
  }
  const entries = Object.entries(isRecord(union) ? union : {});
  if (typeof data.discriminator !== "string") {
    host.ctx.bag.report(
      "schema-missing-key",
      { key: "discriminator (the tag field of a union written as a mapping)" },
      file.locate(path, "key"),
    );
  }
  const field = typeof data.discriminator === "string" ? data.discriminator : "type";
  const cases = entries.map(([value, type]) => ({ value, type: String(type) }));
  const variants = cases.map(({ value, type }): TypeNode => {
    const location = file.locate([...path, "union", value]);
    host.reference(type, location);
    return {
      kind: "ref",
      name: type,
      nullable: false,
      constraints: {},
      docs: { notes: [] },
      location,
    };
  });
  const shape: TypeShape & { kind: "union" } = {
    kind: "union",
    variants,
    discriminator: { field, cases },
    open: data.open === true,
  };
  pending.push({ shape, subject: subjectOf(path), file, path });
  return shape;
}

/** A variant's tag, as the first union that names the variant gives it. */
interface VariantTag {
  field: string;
  value: string;
  subject: string;
  location: SourceLocation;
}

/**
 * Checks every tagged union's variants, then makes each variant's tag field a required
 * literal of its tag (added when the variant does not declare it): a `CardPaymentMethod` is
 * always a card, so its own type, validator and schema say so, and a check of the tag
 * narrows the union to it. One type may be the variant of one tag value per tag field.
 */
export function checkTaggedUnions(
  pending: readonly PendingTagged[],
  named: ReadonlyMap<string, NamedType>,
  ctx: BuildContext,
): void {
  const tags = new Map<string, VariantTag>();
  for (const union of pending) {
    for (const tag of checkVariants(union, named, ctx)) {
      const key = `${tag.type}\u0000${tag.field}`;
      const first = tags.get(key);
      if (!first) tags.set(key, tag);
      else if (first.value !== tag.value)
        ctx.bag.report(
          "union-variant-twice",
          {
            type: tag.type,
            field: tag.field,
            first: `${first.value} in ${first.subject}`,
            tag: tag.value,
          },
          tag.location,
        );
    }
  }
  for (const [key, tag] of tags) {
    const target = named.get(key.slice(0, key.indexOf("\u0000")))!.type;
    if (target.kind === "object") setTag(target, tag);
  }
}

/**
 * The variant's tag field becomes the required literal of its tag, in the place it had. Runs
 * before `extends` is flattened: the field is the variant's own, so it wins over a base's.
 */
function setTag(node: TypeNode & { kind: "object" }, tag: VariantTag): void {
  const index = node.fields.findIndex((f) => f.name === tag.field);
  const declared = node.fields[index];
  const field: Field = {
    name: tag.field,
    required: true,
    type: {
      kind: "literal",
      value: tag.value,
      nullable: false,
      constraints: {},
      docs: declared?.type.docs ?? { notes: [] },
      location: declared?.type.location ?? tag.location,
    },
    location: declared?.location ?? tag.location,
  };
  if (!declared) {
    node.fields.push(field);
    return;
  }
  // kept for the OpenAPI document; both directions carry a tag whoever writes it
  if (declared.access) field.access = declared.access;
  node.fields[index] = field;
}

/**
 * Each variant of a tagged union is a named object type, not nullable, whose tag field (if
 * it declares one) admits the variant's tag: otherwise the spec says two things of one field.
 * Gives the tag of each variant that passes.
 */
function checkVariants(
  { shape, subject, file, path }: PendingTagged,
  named: ReadonlyMap<string, NamedType>,
  ctx: BuildContext,
): (VariantTag & { type: string })[] {
  const found: (VariantTag & { type: string })[] = [];
  const { field, cases } = shape.discriminator!;
  for (const { value, type } of cases) {
    const target = named.get(type)?.type;
    if (!target) continue; // reported as unresolved-ref
    const at = file.locate([...path, "union", value]);
    if (target.kind !== "object" || target.nullable) {
      ctx.bag.report("union-variant-not-object", { union: subject, tag: value, type }, at);
      continue;
    }
    const tag = target.fields.find((f) => f.name === field);
    // Slack's `ok: true | false`: a boolean (or number) field cannot hold a tag
    if (tag?.type.kind === "literal" && typeof tag.type.value !== "string") {
      ctx.bag.report(
        "union-tag-not-string",
        {
          union: subject,
          field: `${type}.${field}`,
          actual: `the ${typeof tag.type.value} ${JSON.stringify(tag.type.value)}`,
        },
        at,
      );
      continue;
    }
    const refused = tag && tagRefusal(tag.type, value, named);
    if (refused)
      ctx.bag.report(
        "union-tag-conflict",
        { union: subject, tag: value, field: `${type}.${field}`, actual: refused },
        at,
      );
    else found.push({ type, field, value, subject, location: at });
  }
  return found;
}

/** Why a declared tag field cannot hold `value` (its type, in words), or undefined when it can. */
function tagRefusal(
  node: TypeNode,
  value: string,
  named: ReadonlyMap<string, NamedType>,
  depth = 0,
): string | undefined {
  switch (node.kind) {
    case "literal":
      return node.value === value ? undefined : `const ${JSON.stringify(node.value)}`;
    case "enum":
      return node.values.includes(value) || (node.open && typeof node.values[0] === "string")
        ? undefined
        : `one of ${node.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "primitive":
      return node.name === "string" ? undefined : `a ${node.name}`;
    case "unknown":
    case "param":
      return undefined;
    case "ref": {
      // An alias of an enum or a string is followed; a chain of aliases ends within a few steps.
      const target = named.get(node.name)?.type;
      return target && depth < 8 ? tagRefusal(target, value, named, depth + 1) : undefined;
    }
    case "array":
    case "map":
    case "object":
    case "union":
      return `a ${node.kind}`;
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}
