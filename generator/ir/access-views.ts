/**
 * The two directions of types whose fields say who writes them (`readOnly`, `writeOnly`).
 *
 * A named type is the type as the API writes it (answers, callback and webhook payloads): its
 * `writeOnly` fields are left out of it. A second named type, `<Name>Writable`, is the type as
 * callers write it, in endpoints' request bodies: its `readOnly` fields are left out, and a
 * required field of either kind is required in its own direction only (OpenAPI's meaning).
 * A type that only refers to such a type gets a writable view too, which refers to the view.
 * A tagged union's tag field is in both directions however it is marked: the union needs it.
 */
import type { Endpoint, FieldAccess, NamedType, TypeNode } from "./model.ts";
import { childTypes, referencedNames } from "./walk.ts";

/** The suffix of a writable view's name (hey-api's, which users of generated SDKs know). */
const viewSuffix = "Writable";

/**
 * Adds a writable view after each type that needs one, gives the named types their read view
 * (the spec's type kept in `source` where that left fields out), and returns the endpoints
 * with request bodies written as callers write them. `taken`: names a view must not take.
 */
export function withAccessViews(
  types: NamedType[],
  endpoints: readonly Endpoint[],
  taken: Iterable<string>,
): Endpoint[] {
  const tags = tagFields(types, endpoints);
  const marked = new Set(
    types.filter((t) => hasMarkedField(t.type, t.name, tags)).map((t) => t.name),
  );
  const reading: Direction = { leaves: "writeOnly", tags, viewNames: new Map() };
  for (const type of types.filter((t) => marked.has(t.name))) {
    const read = viewOf(type.type, reading, type.name);
    if (read !== type.type) Object.assign(type, { type: read, source: type.type });
  }
  // a view only where a request body reaches it: GitHub's 45 types that lead to a readOnly
  // field are all in answers and webhook payloads, and views of them would be dead weight
  const sent = reachableFrom(types, endpoints);
  const viewed = new Set([...withReferrers(types, marked)].filter((name) => sent.has(name)));
  const used = new Set([...taken, ...types.map((t) => t.name)]);
  const viewNames = new Map<string, string>();
  for (const type of types)
    if (viewed.has(type.name)) viewNames.set(type.name, uniqueName(type.name, used));
  const writing: Direction = { leaves: "readOnly", tags, viewNames };
  // each view right after its type, so the declarations read in pairs
  types.splice(
    0,
    types.length,
    ...types.flatMap((t) => (viewNames.has(t.name) ? [t, writableView(t, writing)] : [t])),
  );
  return endpoints.map((endpoint) => {
    if (!endpoint.body) return endpoint;
    const body = viewOf(endpoint.body, writing, undefined);
    return body === endpoint.body ? endpoint : { ...endpoint, body, bodySource: endpoint.body };
  });
}

/** The writable view of a named type, from the spec's type, declared after it. */
function writableView(type: NamedType, writing: Direction): NamedType {
  const spec = type.source ?? type.type;
  const of = type.instance ? `This use of ${type.instance.name}` : type.name;
  return {
    name: writing.viewNames.get(type.name)!,
    type: withWritableDocs(viewOf(spec, writing, type.name), of),
    location: type.location,
    view: { of: type.name },
  };
}

/** What a view leaves out and the names of the views its references go to. */
interface Direction {
  leaves: FieldAccess;
  /** `Type\u0000field` of every tagged union's tag field. */
  tags: ReadonlySet<string>;
  /** Types with a writable view and its name; empty for the read direction. */
  viewNames: ReadonlyMap<string, string>;
}

/**
 * `node` in one direction: fields of the other left out, references to types with a view
 * going to the view; `node` itself when nothing changes. `owner`: the named type whose own
 * node this is (its tag fields stay).
 */
function viewOf(node: TypeNode, direction: Direction, owner: string | undefined): TypeNode {
  switch (node.kind) {
    case "ref": {
      const view = direction.viewNames.get(node.name);
      if (!view) return node;
      // a generic use's view is a type of its own, declared, not written as `List<...>`
      const { generic: _, ...rest } = node;
      return { ...rest, name: view };
    }
    case "array": {
      const items = viewOf(node.items, direction, undefined);
      return items === node.items ? node : { ...node, items };
    }
    case "map": {
      const values = viewOf(node.values, direction, undefined);
      return values === node.values ? node : { ...node, values };
    }
    case "union": {
      const variants = node.variants.map((v) => viewOf(v, direction, undefined));
      if (variants.every((v, i) => v === node.variants[i])) return node;
      const cases = node.discriminator?.cases.map((c) => ({
        value: c.value,
        type: direction.viewNames.get(c.type) ?? c.type,
      }));
      return {
        ...node,
        variants,
        ...(node.discriminator && cases ? { discriminator: { ...node.discriminator, cases } } : {}),
      };
    }
    case "object":
      return objectView(node, direction, owner);
    case "param":
    case "primitive":
    case "unknown":
    case "literal":
    case "enum":
      return node;
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

function objectView(
  node: TypeNode & { kind: "object" },
  direction: Direction,
  owner: string | undefined,
): TypeNode {
  let changed = false;
  const fields = node.fields.flatMap((field) => {
    if (field.access === direction.leaves && !isTag(direction.tags, owner, field.name)) {
      changed = true;
      return [];
    }
    const type = viewOf(field.type, direction, undefined);
    if (type === field.type) return [field];
    changed = true;
    return [{ ...field, type }];
  });
  const baseView = node.base && direction.viewNames.get(node.base.name);
  if (!changed && !baseView) return node;
  return {
    ...node,
    fields,
    ...(node.base && baseView ? { base: { ...node.base, name: baseView } } : {}),
  };
}

function isTag(tags: ReadonlySet<string>, owner: string | undefined, field: string): boolean {
  return owner !== undefined && tags.has(`${owner}\u0000${field}`);
}

/** Whether the node, not looking into the types it names, has a field marked for a direction. */
function hasMarkedField(
  node: TypeNode,
  owner: string | undefined,
  tags: ReadonlySet<string>,
): boolean {
  if (
    node.kind === "object" &&
    node.fields.some((f) => f.access !== undefined && !isTag(tags, owner, f.name))
  )
    return true;
  return childTypes(node).some((child) => hasMarkedField(child, undefined, tags));
}

/** The marked types and every type that refers to one of them, directly or through others. */
function withReferrers(types: readonly NamedType[], marked: ReadonlySet<string>): Set<string> {
  const referrers = new Map<string, string[]>();
  for (const type of types)
    for (const name of namesIn(type)) {
      const list = referrers.get(name);
      if (list) list.push(type.name);
      else referrers.set(name, [type.name]);
    }
  const found = new Set(marked);
  const pending = [...marked];
  for (let next = pending.pop(); next !== undefined; next = pending.pop())
    for (const referrer of referrers.get(next) ?? [])
      if (!found.has(referrer)) {
        found.add(referrer);
        pending.push(referrer);
      }
  return found;
}

/** The named types request bodies refer to, directly or through other types (bases too). */
function reachableFrom(types: readonly NamedType[], endpoints: readonly Endpoint[]): Set<string> {
  const byName = new Map(types.map((t) => [t.name, t]));
  const found = new Set<string>();
  const pending = [...referencedNames(...endpoints.map((e) => e.body))];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const type = byName.get(next);
    if (found.has(next) || !type) continue;
    found.add(next);
    pending.push(...namesIn(type));
  }
  return found;
}

/**
 * The types a named type refers to as the spec declares it (a `writeOnly` field's type too,
 * which its read view leaves out), and the base it extends.
 */
function namesIn(type: NamedType): Set<string> {
  const node = type.source ?? type.type;
  const names = referencedNames(node);
  if (node.kind === "object" && node.base) names.add(node.base.name);
  return names;
}

/** Every tagged union's tag field, as `Variant\u0000field`. */
function tagFields(types: readonly NamedType[], endpoints: readonly Endpoint[]): Set<string> {
  const tags = new Set<string>();
  const visit = (node: TypeNode): void => {
    if (node.kind === "union" && node.discriminator)
      for (const c of node.discriminator.cases)
        tags.add(`${c.type}\u0000${node.discriminator.field}`);
    childTypes(node).forEach(visit);
  };
  types.forEach((t) => visit(t.type));
  endpoints.forEach((e) => e.body && visit(e.body));
  return tags;
}

/** `PetWritable`, or `PetWritable2` and on when a type of the spec has that name. */
function uniqueName(name: string, used: Set<string>): string {
  let candidate = `${name}${viewSuffix}`;
  for (let n = 2; used.has(candidate); n++) candidate = `${name}${viewSuffix}${n}`;
  used.add(candidate);
  return candidate;
}

/** The view's doc comment: the type's, then what this view is. */
function withWritableDocs(node: TypeNode, of: string): TypeNode {
  const said = `${of} as callers write it in request bodies: its readOnly fields left out.`;
  const description = node.docs.description ? `${node.docs.description}\n\n${said}` : said;
  return { ...node, docs: { ...node.docs, description } };
}
