/**
 * Finds named types that only an infinite value could satisfy: a chain of required,
 * non-null references (through fields or aliases) that leads back to where it started.
 * Arrays and maps end a chain (they may be empty), and so do optional or nullable fields.
 */
import type { BuildContext } from "./build-context.ts";
import type { NamedType, TypeNode } from "./model.ts";

interface Edge {
  to: string;
  via: string;
}

/** Named types a value of `node` must contain, with the field path that forces each. */
function forcedRefs(node: TypeNode, via: string): Edge[] {
  if (node.nullable) return [];
  switch (node.kind) {
    case "ref":
      return [{ to: node.name, via }];
    case "object":
      return node.fields
        .filter((f) => f.required)
        .flatMap((f) => forcedRefs(f.type, via ? `${via}.${f.name}` : f.name));
    case "param":
    case "primitive":
    case "unknown":
    case "array":
    case "map":
    case "literal":
    case "enum":
    // A union is satisfied by any one variant; a variant that forces a cycle is not reported.
    case "union":
      return [];
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Reports each infinite type once, at its declaration. */
export function checkInfiniteTypes(types: readonly NamedType[], ctx: BuildContext): void {
  const edges = new Map(types.map((t) => [t.name, forcedRefs(t.type, "")]));
  const reported = new Set<string>();
  const cyclic = onCycles(edges);
  for (const start of types) {
    // A search from every type would visit everything it reaches, n^2 on a connected spec:
    // only a type on a cycle has one to report.
    if (!cyclic.has(start.name)) continue;
    const cycle = findCycle(start.name, edges);
    if (cycle && !reported.has(start.name)) {
      cycle.names.forEach((n) => reported.add(n));
      ctx.bag.report("infinite-type", { name: start.name, cycle: cycle.text }, start.location);
    }
  }
}

/**
 * Names that lie on some cycle of `edges` (a strongly connected component of more than one
 * type, or a type that forces itself), by Tarjan's algorithm: linear in the graph.
 */
function onCycles(edges: ReadonlyMap<string, readonly Edge[]>): Set<string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const result = new Set<string>();
  const connect = (name: string): void => {
    index.set(name, index.size);
    low.set(name, index.get(name)!);
    stack.push(name);
    onStack.add(name);
    for (const { to } of edges.get(name) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(name, Math.min(low.get(name)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(name, Math.min(low.get(name)!, index.get(to)!));
      }
    }
    if (low.get(name) !== index.get(name)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== name);
    const selfLoop = (edges.get(name) ?? []).some((e) => e.to === name);
    if (component.length > 1 || selfLoop) component.forEach((n) => result.add(n));
  };
  for (const name of edges.keys()) if (!index.has(name)) connect(name);
  return result;
}

function findCycle(
  start: string,
  edges: Map<string, Edge[]>,
): { names: string[]; text: string } | undefined {
  const stack: { name: string; via: string }[] = [];
  const visited = new Set<string>();
  const walk = (name: string): boolean => {
    for (const edge of edges.get(name) ?? []) {
      stack.push({ name, via: edge.via });
      if (edge.to === start) return true;
      if (!visited.has(edge.to)) {
        visited.add(edge.to);
        if (walk(edge.to)) return true;
      }
      stack.pop();
    }
    return false;
  };
  if (!walk(start)) return undefined;
  const text = [...stack.map((s) => (s.via ? `${s.name}.${s.via}` : s.name)), start].join(" -> ");
  return { names: stack.map((s) => s.name), text };
}

/** The named types an alias stands for directly: itself a reference, or members of its union. */
function aliasTargets(node: TypeNode): { name: string; loose: boolean }[] {
  if (node.kind === "ref") return [{ name: node.name, loose: node.nullable }];
  if (node.kind !== "union") return [];
  // A union member is one way out of the cycle: the cycle has a finite value, but
  // TypeScript still cannot declare the aliases.
  return node.variants.flatMap((v) => aliasTargets(v).map((t) => ({ ...t, loose: true })));
}

/**
 * Reports aliases that name themselves through references and union members only, with a
 * way out (a nullable link, `Maybe: Maybe | null`, or another union member,
 * `A: B | string`, `B: A | number`): no value is infinite, but TypeScript cannot declare the
 * aliases. Cycles without a way out are left to checkInfiniteTypes.
 */
export function checkAliasCycles(types: readonly NamedType[], ctx: BuildContext): void {
  const targets = new Map(types.map((t) => [t.name, aliasTargets(t.type)] as const));
  const reported = new Set<string>();
  for (const start of types) {
    if (reported.has(start.name)) continue;
    const cycle = aliasCycle(start.name, targets);
    if (!cycle) continue;
    cycle.names.forEach((n) => reported.add(n));
    if (cycle.loose)
      ctx.bag.report(
        "alias-cycle",
        { name: start.name, cycle: [...cycle.names, start.name].join(" -> ") },
        start.location,
      );
  }
}

/** A path of alias links from `start` back to it, and whether any link is a way out. */
function aliasCycle(
  start: string,
  targets: ReadonlyMap<string, readonly { name: string; loose: boolean }[]>,
): { names: string[]; loose: boolean } | undefined {
  const path: string[] = [];
  const seen = new Set<string>();
  const walk = (name: string, loose: boolean): { names: string[]; loose: boolean } | undefined => {
    path.push(name);
    for (const next of targets.get(name) ?? []) {
      if (next.name === start) return { names: [...path], loose: loose || next.loose };
      if (seen.has(next.name)) continue;
      seen.add(next.name);
      const found = walk(next.name, loose || next.loose);
      if (found) return found;
    }
    path.pop();
    return undefined;
  };
  return walk(start, false);
}
