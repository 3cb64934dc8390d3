/**
 * The shape of the imported types, made one the generator takes (docs/openapi-documents.md, "Cycles
 * and depth"). JSON Schema says things the format refuses: a `$ref` cycle with nothing
 * between (`A: B`, `B: A`), required fields that only an infinite value could fill (`C.d`
 * needs a D, `D.c` a C), aliases that name themselves through a union (`F: F | string`),
 * `allOf` cycles (`J` extends `K`, `K` extends `J`), and inline schemas nested past what a
 * spec file may nest. Each cycle is cut at the link that closes it, with a note naming the
 * cycle and the pointer it came from; a schema nested too deep becomes a named type, which
 * loses nothing. Every walk here is a loop with its own stack, so no depth of input
 * overflows the call stack.
 */
import { isObject, note, under, type ImportContext, type TypeOut } from "./context.ts";
import type { JsonObject, JsonValue } from "./document.ts";
import { pascalCase } from "../ir/casing.ts";
import { globalTypeNames, runtimeExportNames } from "../ir/reserved-names.ts";

/** A reference from one named type to another, and how to cut it. */
interface Link {
  /** The type whose mapping holds the link (a base, for an inherited field). */
  owner: string;
  /** The field path below the owner's schema, for the note's pointer. */
  fields?: string[];
  to: string;
  /** The field path that holds it (`d`, `a.b`), or "" for the type itself. */
  via: string;
  /** Cuts the link; gives the words of the note, `{cycle}` standing for the cycle. */
  cut: () => { target: JsonObject; text: string };
  dead?: boolean;
}

/** The members of a shorthand type expression: `A | B[] | null` -> [A, B[], null]. */
const membersOf = (expr: string) => expr.split("|").map((m) => m.trim());

/** Whether a shorthand member names a type (not a primitive, an array, a map or null). */
const isName = (member: string) => /^[A-Z][A-Za-z0-9]*$/.test(member);

/** Makes every imported type one the generator accepts; see the file's comment. */
export function shapeTypes(ctx: ImportContext): void {
  cutCycles(ctx, (name) => extendsLinks(ctx, name));
  cutCycles(ctx, (name) => forcedLinks(ctx, name, new Set()));
  cutCycles(ctx, (name) => aliasLinks(ctx, name));
}

/** The type of `name` as a mapping, written back so that a cut can change it in place. */
function mappingOf(ctx: ImportContext, name: string): JsonObject {
  const type = ctx.types.get(name)!;
  if (isObject(type)) return type;
  const mapping: JsonObject = { type };
  ctx.types.set(name, mapping);
  return mapping;
}

/** `extends` of a type: the allOf it came from names its base. */
function extendsLinks(ctx: ImportContext, name: string): Link[] {
  const type = ctx.types.get(name);
  if (!isObject(type) || typeof type.extends !== "string") return [];
  const base = type.extends;
  return [
    {
      owner: name,
      to: base,
      via: "",
      cut: () => {
        delete type.extends;
        delete type.omit;
        return {
          target: type,
          text: `allOf of ${base} left out: it leads back here ({cycle}), and a type cannot extend itself`,
        };
      },
    },
  ];
}

/**
 * Named types a value of `name` must contain: a non-nullable reference of the type itself or
 * of a required field (inherited ones too), as ir/check-infinite.ts finds them.
 */
function forcedLinks(ctx: ImportContext, name: string, seen: Set<string>): Link[] {
  const links: Link[] = [];
  // The type, then its bases, each once (the extends cycles are cut already).
  for (let at: string | undefined = name; at !== undefined && !seen.has(at); ) {
    seen.add(at);
    const type = ctx.types.get(at);
    if (type === undefined) break;
    const owner = at;
    if (typeof type === "string") {
      if (isName(type))
        links.push({
          owner,
          to: type,
          via: "",
          cut: () => toUnknown(ctx, owner, type, `type ${owner}`),
        });
      break;
    }
    if (type.nullable === true) break;
    if (typeof type.type === "string" && isName(type.type)) {
      const target = type.type;
      links.push({
        owner,
        to: target,
        via: "",
        cut: () => toUnknown(ctx, owner, target, `type ${owner}`),
      });
    }
    links.push(...requiredFieldLinks(owner, type));
    at = typeof type.extends === "string" ? type.extends : undefined;
  }
  return links;
}

/** Links through the required, non-nullable fields of a mapping, into inline objects too. */
function requiredFieldLinks(owner: string, root: JsonObject): Link[] {
  const links: Link[] = [];
  const stack: [JsonObject, string][] = [[root, ""]];
  while (stack.length) {
    const [object, via] = stack.pop()!;
    if (!isObject(object.fields)) continue;
    const fields = object.fields;
    for (const [field, spec] of Object.entries(fields)) {
      if (!isObject(spec) || spec.required !== true || spec.nullable === true) continue;
      const path = via ? `${via}.${field}` : field;
      if (typeof spec.type === "string") {
        const members = membersOf(spec.type);
        if (members.length === 1 && isName(members[0]!))
          links.push({
            owner,
            fields: path.split("."),
            to: members[0]!,
            via: path,
            cut: () => {
              delete spec.required;
              return {
                target: spec,
                text: `field ${path} is optional here: required, only an infinite value could fill it ({cycle})`,
              };
            },
          });
      } else if (spec.type === undefined && isObject(spec.fields)) stack.push([spec, path]);
    }
  }
  return links;
}

/** The named types a type stands for directly: itself a reference, or members of its union. */
function aliasLinks(ctx: ImportContext, name: string): Link[] {
  const type = ctx.types.get(name);
  if (type === undefined) return [];
  const expr = typeof type === "string" ? type : typeof type.type === "string" ? type.type : "";
  const links: Link[] = membersOf(expr)
    .filter(isName)
    .map((member) => ({
      owner: name,
      to: member,
      via: "",
      cut: () => {
        const mapping = mappingOf(ctx, name);
        const rest = membersOf(String(mapping.type)).filter((m) => m !== member);
        const kept = rest.filter((m) => m !== "null");
        if (rest.length > kept.length) mapping.nullable = true;
        mapping.type = kept.length ? kept.join(" | ") : "unknown";
        return {
          target: mapping,
          text: `member ${member} of the union left out: it names this type again ({cycle}), which TypeScript cannot declare`,
        };
      },
    }));
  if (isObject(type) && Array.isArray(type.union))
    type.union.forEach((member) => {
      if (typeof member !== "string" || !isName(member)) return;
      const union = type.union as JsonValue[];
      links.push({
        owner: name,
        to: member,
        via: "",
        cut: () => {
          union.splice(union.indexOf(member), 1);
          if (union.length === 0) {
            delete type.union;
            type.type = "unknown";
          }
          return {
            target: type,
            text: `member ${member} of the union left out: it names this type again ({cycle}), which TypeScript cannot declare`,
          };
        },
      });
    });
  return links;
}

/** A type that is only a reference back to itself: any value, noted. */
function toUnknown(
  ctx: ImportContext,
  name: string,
  target: string,
  what: string,
): { target: JsonObject; text: string } {
  const mapping = mappingOf(ctx, name);
  for (const key of Object.keys(mapping))
    if (key !== "description" && key !== "undocumented") delete mapping[key];
  mapping.type = "unknown";
  return {
    target: mapping,
    text: `${what}, $ref of ${target}, written as unknown: the $refs lead back here ({cycle}) with nothing between, which no value can satisfy`,
  };
}

/**
 * Cuts every cycle of the links: a depth-first walk from each type in order, each link back
 * to a type on the walk's path cut (the rest of the walk stays valid without it), so the
 * cuts are the same on every run and the work is linear.
 */
function cutCycles(ctx: ImportContext, linksOf: (name: string) => Link[]): void {
  const state = new Map<string, "open" | "done">();
  for (const start of ctx.types.keys()) {
    if (state.has(start)) continue;
    const path: { name: string; links: Link[]; next: number; via: string }[] = [];
    const enter = (name: string, via: string) => {
      state.set(name, "open");
      path.push({ name, links: linksOf(name), next: 0, via });
    };
    enter(start, "");
    while (path.length) {
      const top = path.at(-1)!;
      const link = top.links[top.next++];
      if (!link) {
        state.set(top.name, "done");
        path.pop();
        continue;
      }
      if (link.dead || !ctx.types.has(link.to)) continue;
      const seen = state.get(link.to);
      if (seen === undefined) enter(link.to, link.via);
      else if (seen === "open") {
        const from = path.findIndex((p) => p.name === link.to);
        const steps = path.slice(from).map((p, i, all) => {
          const via = i + 1 < all.length ? all[i + 1]!.via : link.via;
          return via ? `${p.name}.${via}` : p.name;
        });
        const cycle = [...steps, link.to].join(" -> ");
        link.dead = true;
        const { target, text } = link.cut();
        const source = ctx.typeSources.get(link.owner)!;
        const at = under(source, ...(link.fields ?? []).flatMap((f) => ["properties", f]));
        note(ctx, target, at, text.replace("{cycle}", cycle));
      }
    }
  }
}

/** Nesting of YAML collections a type may take below where it is written before it is named. */
const nestingBudget = 36;

/** A place a type is written outside `types`: what holds it, its key, its owner and its name hint. */
export interface TypeRoot {
  holder: JsonObject;
  key: string;
  owner: string;
  area: string;
  hint: string;
}

/**
 * Inline schemas nested so deep that the spec file would nest past what the loader reads
 * (64 levels) become named types, `<Owner><Field>`: a type holds no more than
 * `nestingBudget` levels below the place it is written. `roots` are the places types are
 * written outside `types` (bodies, parameters, responses).
 */
export function hoistDeepTypes(ctx: ImportContext, roots: readonly TypeRoot[]): void {
  const names = new Set<string>([
    ...ctx.types.keys(),
    ...runtimeExportNames,
    ...globalTypeNames,
    ...ctx.generatedNames,
  ]);
  const hoister = (owner: string, area: string) => (spec: JsonObject, hint: string) => {
    const base = `${owner}${pascalCase(hint) || "Nested"}`;
    let name = base;
    for (let n = 2; names.has(name); n++) name = `${base}${n}`;
    names.add(name);
    ctx.types.set(name, spec);
    const source = ctx.typeSources.get(owner) ?? { file: ctx.doc.root.path, pointer: "#" };
    ctx.typeSources.set(name, source);
    ctx.typeAreas.set(name, area);
    return name;
  };
  for (const root of roots)
    hoistBelow(root.holder[root.key], hoister(`${root.owner}${pascalCase(root.hint)}`, root.area));
  // Named types, those just named among them: a Map's walk visits the entries added during it.
  for (const [owner, type] of ctx.types)
    hoistBelow(type, hoister(owner, ctx.typeAreas.get(owner) ?? "shared"));
}

/**
 * The places types are written outside `types`: an endpoint's parameters, body and
 * response, a callback's parameters, body and answers, the webhooks' payloads. Each is
 * owned by its endpoint or event, for the names of what is taken out of it.
 */
export function typeRoots(
  endpoints: readonly { id: string; group: string; value: JsonObject }[],
  inbound: JsonObject,
): TypeRoot[] {
  const roots: TypeRoot[] = [];
  const add = (
    holder: JsonValue | undefined,
    key: string,
    owner: string,
    area: string,
    hint: string,
  ) => {
    if (isObject(holder) && holder[key] !== undefined)
      roots.push({ holder, key, owner, area, hint });
  };
  const each = (holder: JsonValue | undefined, owner: string, area: string, hint: string) => {
    if (isObject(holder))
      for (const key of Object.keys(holder)) add(holder, key, owner, area, `${hint} ${key}`);
  };
  for (const { id, group, value } of endpoints) {
    const owner = pascalCase(id);
    each(value.params, owner, group, "param");
    add(value, "body", owner, group, "body");
    for (const key of ["response", "streamResponse"]) {
      const response = value[key];
      add(response, "body", owner, group, `${key} body`);
      if (isObject(response)) {
        each(response.events, owner, group, `${key} event`);
        each(response.headers, owner, group, `${key} header`);
      }
    }
  }
  const callbacks = isObject(inbound.callbacks) ? inbound.callbacks : {};
  for (const [event, callback] of Object.entries(callbacks)) {
    const owner = pascalCase(event);
    if (!isObject(callback)) continue;
    each(callback.params, owner, "shared", "param");
    for (const key of ["body", "success", "failure"]) add(callback, key, owner, "shared", key);
  }
  const webhooks = inbound.webhooks;
  if (isObject(webhooks)) {
    add(webhooks, "payload", "Webhook", "shared", "payload");
    if (isObject(webhooks.events))
      for (const [event, spec] of Object.entries(webhooks.events))
        add(spec, "payload", `${pascalCase(event)}Webhook`, "shared", "payload");
  }
  return roots;
}

/**
 * Walks the mappings below `root` (fields, items, values, union members) and replaces each
 * one that sits `nestingBudget` levels down by the name `hoist` gives it.
 */
function hoistBelow(
  root: JsonValue | undefined,
  hoist: (spec: JsonObject, hint: string) => string,
): void {
  if (!isObject(root)) return;
  type Slot = [JsonObject | JsonValue[], string | number, number, string];
  const stack: Slot[] = [];
  const below = (node: JsonObject, depth: number, name: string) => {
    if (isObject(node.fields))
      for (const field of Object.keys(node.fields))
        stack.push([node.fields, field, depth + 2, field]);
    if (node.items !== undefined) stack.push([node, "items", depth + 1, `${name} item`]);
    if (node.values !== undefined) stack.push([node, "values", depth + 1, `${name} value`]);
    if (Array.isArray(node.union))
      for (let i = 0; i < node.union.length; i++)
        stack.push([node.union, i, depth + 2, `${name} variant`]);
  };
  below(root, 0, "");
  while (stack.length) {
    const [parent, at, depth, name] = stack.pop()!;
    const slots = parent as Record<string | number, JsonValue>;
    const node = slots[at];
    if (!isObject(node)) continue;
    if (depth >= nestingBudget) slots[at] = withKeptFacets(node, hoist(node, name));
    else below(node, depth, name);
  }
}

/**
 * What stays where a nested schema was named: its reference, with the facets that belong to
 * the place (a field's `required`), the rest going with the named type.
 */
function withKeptFacets(spec: JsonObject, name: string): TypeOut {
  if (spec.required !== true) return name;
  delete spec.required;
  return { type: name, required: true };
}
