/**
 * The generated validators under hostile values (issue 11, invariant 4). A validator of every
 * type of the Merchant spec and of the feature fixtures (emitted in-process with
 * `validators: "all"`, so response types too) is called with valid values built from the model, with anything
 * (test/fuzz/hostile-values.ts) and with valid values mutated at random depths. Every call
 * must return without throwing within a time limit; every issue must have a path that starts
 * at the root name given and leads, own property by own property, to the value it is about
 * (a missing field for "is required"), with a message that names that value's kind; a
 * change the model says is wrong must be reported there or above; a valid value gets no
 * issue; Object.prototype is never touched.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  maxDepth,
  maxIssues,
  type ValidationIssue,
  type Validator,
} from "../../generator/runtime/validate.ts";
import { features, repoRoot, tempDir } from "../helpers.ts";
import { copyTree, hostileValue, mutate, mutation, type Applied } from "./hostile-values.ts";
import { kindOf, parsePath, resolvePath } from "./issue-paths.ts";
import { fuzzParameters, fuzzTimeout, longRun } from "./settings.ts";
import { loadModel, subjectsOf, ValidValues, type Segment, type Subject } from "./typed-values.ts";

/** One validator to call, with the model's view of its type. */
interface Target extends Subject {
  check: Validator;
  values: ValidValues;
  /** Whether its type contains itself (a transaction's `adjust_transactions`). */
  recursive: boolean;
}

/** Root names a caller gives; an issue's path must start with the one given. */
const rootName = fc.constantFrom("body", "params", "value", "$", "req.body");

/** The longest one call may take. Generous for a shared 2-core machine; a hang or a slow regex takes far longer. */
const callLimitMs = 2_000;

const suffix = " (further problems not listed)";

let work: string;
const targets: Target[] = [];

beforeAll(async () => {
  work = tempDir("apigen-fuzz-validators-");
  for (const spec of ["spec", ...features.map((f) => `test/fixtures/features/${f}`)]) {
    const { model, validators } = loadModel(join(repoRoot, spec));
    const file = join(work, `${spec.replaceAll("/", "-")}.ts`);
    writeFileSync(
      file,
      // every runtime module it imports (validate, unions, validator-data, standard-schema,
      // client/response-validation), from the generator's own sources
      validators.replace(/"\.\/runtime\/([\w/-]+)\.js"/g, (_, module: string) =>
        JSON.stringify(join(repoRoot, "generator/runtime", `${module}.ts`)),
      ),
    );
    const module = (await import(file)) as Record<string, unknown>;
    const values = new ValidValues(model);
    for (const subject of subjectsOf(spec, model)) {
      const check = module[subject.name];
      if (typeof check !== "function") throw new Error(`${spec} has no ${subject.name}`);
      const recursive =
        subject.typeName !== undefined && values.reaches(subject.type, subject.typeName);
      const target: Target = { ...subject, check: check as Validator, values, recursive };
      // fast-check prints a failing case: the validator's name, not the whole model.
      Object.defineProperty(target, fc.toStringMethod, { value: () => `${spec}:${subject.name}` });
      targets.push(target);
    }
  }
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Object.prototype as it was before any validator ran. */
const prototypeBefore = Reflect.ownKeys(Object.prototype).map(
  (key) => [key, Object.getOwnPropertyDescriptor(Object.prototype, key)!] as const,
);

function expectPrototypeUntouched(): void {
  expect(Reflect.ownKeys(Object.prototype)).toEqual(prototypeBefore.map(([key]) => key));
  for (const [key, before] of prototypeBefore) {
    const now = Object.getOwnPropertyDescriptor(Object.prototype, key)!;
    expect(now.value === before.value && now.get === before.get && now.set === before.set).toBe(
      true,
    );
  }
  expect(Object.getPrototypeOf(Object.prototype)).toBe(null);
}

/** Calls a validator as the client and the router do; a throw fails the case. */
function run(target: Target, value: unknown, root: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const started = performance.now();
  target.check(value, root, issues);
  const ms = performance.now() - started;
  expect(ms, `${target.spec}: ${target.name} took ${ms.toFixed(0)} ms`).toBeLessThan(callLimitMs);
  return issues;
}

/** Each issue's path leads to the value it is about, and its message names that value's kind. */
function expectLocated(issues: readonly ValidationIssue[], value: unknown, root: string): void {
  expect(issues.length).toBeLessThanOrEqual(maxIssues + 1);
  issues.forEach((issue, n) => {
    expect(typeof issue.path).toBe("string");
    expect(typeof issue.message).toBe("string");
    expect(issue.message.length).toBeGreaterThan(0);
    expect(issue.message.endsWith(suffix)).toBe(n === maxIssues);
    const message = issue.message.endsWith(suffix)
      ? issue.message.slice(0, -suffix.length)
      : issue.message;
    const segments = parsePath(issue.path, root);
    const at = resolvePath(value, segments);
    if (message === "is required") {
      const parent = resolvePath(value, segments.slice(0, -1));
      expect(parent.found && typeof parent.value === "object", issue.path).toBe(true);
      expect(at.value, `${issue.path} is required but is there`).toBeUndefined();
      return;
    }
    expect(at.found, `${issue.path} (${message}) leads to nothing`).toBe(true);
    const not = /, not (.+)$/.exec(message);
    if (not) expect(kindOf(at.value), `${issue.path} ${message}`).toBe(not[1]);
    if (message.startsWith("is nested deeper")) {
      expect(message).toBe(`is nested deeper than ${maxDepth} levels`);
      expect(segments.length, issue.path).toBe(maxDepth);
      expect(typeof at.value).toBe("object");
    }
    const cycle = /^is a cycle: the same value as (.+)$/.exec(message);
    if (cycle) {
      const first = resolvePath(value, parsePath(cycle[1]!, root));
      expect(first.found && first.value === at.value, `${issue.path} ${message}`).toBe(true);
    }
  });
}

const isPrefix = (short: readonly Segment[], long: readonly Segment[]) =>
  short.length <= long.length && short.every((s, i) => s === long[i]);

/** The named type the model gives a path below a target (its own for the root). */
function typeNameAt(target: Target, path: readonly Segment[]): string | undefined {
  if (path.length === 0) return target.typeName;
  const type = target.values.at(target.type, path)?.type;
  return type?.kind === "ref" ? type.name : undefined;
}

/**
 * A change the model says no value of the type at its place can be (a symbol for a string,
 * a missing required field, a hole in an array, a cycle where the validator looks inside)
 * is reported at that place or above it. Returns whether there was such a change.
 */
function expectFound(t: Target, change: Applied, paths: readonly Segment[][]): boolean {
  const slot = t.values.at(t.type, change.path);
  if (!slot) return false;
  const absent = change.value === undefined && typeof change.path.at(-1) === "string";
  const wrong = absent
    ? slot.required
    : t.values.wrongKind(slot.type, change.value) ||
      (change.kind === "cycle" && t.values.checksInside(slot.type));
  if (wrong)
    expect(
      paths.some((p) => isPrefix(p, change.path)),
      `${t.name}: no issue at ${JSON.stringify(change.path)} or above it`,
    ).toBe(true);
  return wrong;
}

/**
 * A recursive shape pumped past `maxDepth` is reported where the limit is reached: below the
 * pump, or above it when the pump itself sits past the limit (in an earlier pump's nest).
 */
function expectTooDeep(
  t: Target,
  change: Applied,
  issues: readonly ValidationIssue[],
  paths: readonly Segment[][],
): boolean {
  const pumped = change.pumped;
  if (!pumped?.sameType || !t.values.at(t.type, change.path)) return false;
  if (change.path.length + pumped.levels < maxDepth) return false;
  expect(
    issues.some(
      (issue, n) =>
        issue.message.startsWith("is nested deeper") &&
        (isPrefix(change.path, paths[n]!) || isPrefix(paths[n]!, change.path)),
    ),
    `${t.name}: a nest of ${pumped.levels} levels at ${JSON.stringify(change.path)} is not reported`,
  ).toBe(true);
  return true;
}

describe("the generated validators on hostile values", () => {
  it("have been found: the Merchant package's and every feature fixture's", () => {
    expect(targets.filter((t) => t.spec === "spec").length).toBeGreaterThan(50);
    expect(new Set(targets.map((t) => t.spec)).size).toBe(features.length + 1);
    expect(targets.some((t) => t.spec === "spec" && t.recursive)).toBe(true);
  });

  it(
    "accept every valid value",
    () => {
      const target = fc.constantFrom(...targets);
      fc.assert(
        fc.property(
          target.chain((t) => fc.tuple(fc.constant(t), t.values.of(t.type))),
          rootName,
          ([t, value], root) => {
            expect(run(t, value, root), `${t.spec}: ${t.name}`).toEqual([]);
            expectPrototypeUntouched();
          },
        ),
        fuzzParameters(500),
      );
    },
    fuzzTimeout(60_000),
  );

  it(
    "take anything without throwing or hanging, and locate every problem",
    () => {
      fc.assert(
        fc.property(fc.constantFrom(...targets), hostileValue, rootName, (t, value, root) => {
          expectLocated(run(t, value, root), value, root);
          expectPrototypeUntouched();
        }),
        fuzzParameters(500),
      );
    },
    fuzzTimeout(60_000),
  );

  it(
    "find every change the model says is wrong in valid values mutated at any depth, cycles and nests thousands of levels deep included",
    () => {
      const recursive = targets.filter((t) => t.recursive);
      const target = fc.oneof(fc.constantFrom(...targets), fc.constantFrom(...recursive));
      const outcomes = { located: 0, tooDeep: 0, cycles: 0 };
      fc.assert(
        fc.property(
          target.chain((t) => fc.tuple(fc.constant(t), t.values.of(t.type))),
          fc.array(mutation, { minLength: 1, maxLength: 4 }),
          rootName,
          ([t, valid], mutations, root) => {
            const box = { root: copyTree(valid) };
            const applied = mutate(box, mutations, (path) => typeNameAt(t, path));
            const issues = run(t, box.root, root);
            expectLocated(issues, box.root, root);
            expectPrototypeUntouched();
            if (issues.some((i) => i.message.startsWith("is a cycle"))) outcomes.cycles++;
            if (issues.length > maxIssues) return;
            const paths = issues.map((i) => parsePath(i.path, root));
            applied.forEach((change, n) => {
              // A later change at or above this one's place may have undone it.
              const later = applied.slice(n + 1);
              if (later.some((l) => isPrefix(l.path, change.path))) return;
              if (expectFound(t, change, paths)) outcomes.located++;
              if (later.length === 0 && expectTooDeep(t, change, issues, paths)) outcomes.tooDeep++;
            });
          },
        ),
        fuzzParameters(1_000, 10_000),
      );
      if (longRun) console.log("validator fuzz outcomes", outcomes);
      // Each kind of finding must be common, or the mutations do not reach what they are for.
      expect(outcomes.located).toBeGreaterThan(0);
      expect(outcomes.tooDeep).toBeGreaterThan(0);
      expect(outcomes.cycles).toBeGreaterThan(0);
    },
    fuzzTimeout(60_000),
  );
});
