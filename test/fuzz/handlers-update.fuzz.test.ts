/**
 * The in-place update of a handlers file (issue 34), as a property (fast-check): a handlers
 * file as apigen writes it for one set of events, edited the way people edit (comments of any
 * text on lines of their own and after code, blank lines, tabs for indentation, CRLF line
 * ends, a byte order mark), then updated for another set of events. Whatever the sets and the
 * edits:
 *
 * - nothing the user wrote is deleted: their text is a subsequence of the result, and every
 *   line of it is still there but the import's and the last entry's (which may gain a name or
 *   a comma);
 * - the result parses, has an entry for every event of the new set, and each entry of an event
 *   that is gone is marked;
 * - a second update changes nothing.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../../generator/diff/load-base.ts";
import { createEmitContext } from "../../generator/emit/context.ts";
import {
  scaffoldParts,
  type ScaffoldHandler,
  type ScaffoldParts,
} from "../../generator/emit/handlers-scaffold.ts";
import { applyEdits, planFileUpdate } from "../../generator/handlers-update/plan.ts";
import { readHandlersFile } from "../../generator/handlers-update/read-file.ts";
import { repoRoot, tempDir } from "../helpers.ts";
import { fuzzParameters, fuzzTimeout } from "./settings.ts";

const path = "/project/src/handlers.ts";
let callbacks: ScaffoldHandler[];
let webhookParts: ScaffoldParts;
let merchant: ScaffoldParts;
const scratch = tempDir("apigen-handlers-fuzz-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

beforeAll(() => {
  merchant = scaffoldParts(createEmitContext(loadModel(join(repoRoot, "spec")), "spec/"));
  // one more callback than the Merchant spec has: order.shipping's twin, refund.notice
  const spec = join(scratch, "spec");
  cpSync(join(repoRoot, "spec"), spec, { recursive: true });
  const file = join(spec, "callbacks.yaml");
  writeFileSync(
    file,
    readFileSync(file, "utf8")
      .replace(
        "  order.shipping:\n    summary: order.shipping",
        "  refund.notice:\n    summary: refund.notice",
      )
      .replace("path: /order_shipping", "path: /refund_notice"),
  );
  const variant = scaffoldParts(createEmitContext(loadModel(spec), "spec/"));
  callbacks = [...merchant.callbacks, variant.callbacks.find((c) => c.event === "refund.notice")!];
  webhookParts = scaffoldParts(
    createEmitContext(loadModel(join(repoRoot, "test/fixtures/features/typed-webhooks")), "w/"),
  );
});

/** The scaffold parts of a spec with `events` (indices into the pool) and, or not, the webhooks. */
function partsOf(events: readonly number[], webhooks: boolean): ScaffoldParts {
  return {
    ...merchant,
    callbacks: callbacks.filter((_, i) => events.includes(i)),
    webhooks: webhooks ? webhookParts.webhooks : [],
    ...(webhooks && webhookParts.webhookObject
      ? { webhookObject: webhookParts.webhookObject }
      : {}),
  };
}

function update(text: string, parts: ScaffoldParts, handlersImport?: string) {
  const planned = planFileUpdate(path, text, parts, handlersImport);
  return { text: applyEdits(text, planned.edits), ...planned };
}

/** The file apigen writes for `parts`: an empty handlers object, brought up to date. */
function written(parts: ScaffoldParts): string {
  const empty = [
    "/** Handlers, scaffolded by apigen. */",
    "",
    'import type { CallbackHandlers } from "merchant-commerce-api/callbacks";',
    "",
    "/** Every handler, by event. */",
    "export const handlers: CallbackHandlers = {};",
    "",
  ].join("\n");
  return update(empty, parts).text;
}

/** What a person does to a file: each applied at line boundaries outside block comments. */
type Edit =
  | { kind: "comment-line"; at: number; text: string; block: boolean }
  | { kind: "trailing-comment"; at: number; text: string }
  | { kind: "blank-line"; at: number }
  | { kind: "tab-indent"; at: number };

const commentText = fc
  .string({ unit: "grapheme", maxLength: 30 })
  .map((t) => t.replace(/[\n\r\u2028\u2029]/g, " ").replace(/\*\//g, "* /"));

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant("comment-line" as const),
    at: fc.nat(),
    text: commentText,
    block: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("trailing-comment" as const), at: fc.nat(), text: commentText }),
  fc.record({ kind: fc.constant("blank-line" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("tab-indent" as const), at: fc.nat() }),
);

/** Indices of the lines that start outside a block comment (and do not end inside one). */
function codeLines(lines: readonly string[]): number[] {
  const out: number[] = [];
  let inBlock = false;
  lines.forEach((line, i) => {
    const startsInBlock = inBlock;
    const opens = line.lastIndexOf("/*");
    const closes = line.lastIndexOf("*/");
    if (opens > closes) inBlock = true;
    else if (closes !== -1) inBlock = false;
    if (!startsInBlock && !inBlock) out.push(i);
  });
  return out;
}

/** `text` with the person's edits made. */
function edited(text: string, edits: readonly Edit[], crlf: boolean, bom: boolean): string {
  const lines = text.split("\n");
  for (const edit of edits) {
    const code = codeLines(lines);
    const i = code[edit.at % code.length]!;
    switch (edit.kind) {
      case "comment-line":
        lines.splice(i, 0, edit.block ? `/* ${edit.text} */` : `// ${edit.text}`);
        break;
      case "trailing-comment":
        if (lines[i]!.trim() !== "") lines[i] = `${lines[i]} // ${edit.text}`;
        break;
      case "blank-line":
        lines.splice(i, 0, "");
        break;
      case "tab-indent":
        lines[i] = lines[i]!.replace(/^ {2}/, "\t");
        break;
      default: {
        const unhandled: never = edit;
        throw new Error(`unhandled edit ${JSON.stringify(unhandled)}`);
      }
    }
  }
  const joined = lines.join(crlf ? "\r\n" : "\n");
  return bom ? `\uFEFF${joined}` : joined;
}

/** Whether `small`'s characters appear in `big` in order. */
function isSubsequence(small: string, big: string): boolean {
  let j = 0;
  for (let i = 0; i < big.length && j < small.length; i++) if (big[i] === small[j]) j++;
  return j === small.length;
}

const eventSet = fc.uniqueArray(fc.integer({ min: 0, max: 4 }), { maxLength: 5 });

describe("the in-place update of a handlers file, whatever the user did to it", () => {
  it(
    "keeps every byte the user wrote, adds every new event, marks every removed one, and is idempotent",
    () => {
      fc.assert(
        fc.property(
          eventSet,
          fc.boolean(),
          eventSet,
          fc.boolean(),
          fc.array(editArb, { maxLength: 12 }),
          fc.boolean(),
          fc.boolean(),
          fc.constantFrom(undefined, "./generated/src/callbacks.js"),
          (before, beforeHooks, after, afterHooks, edits, crlf, bom, handlersImport) => {
            const original = edited(written(partsOf(before, beforeHooks)), edits, crlf, bom);

            const parts = partsOf(after, afterHooks);
            // positions are read off the text after a byte order mark, as the update reads it
            const body = original.replace(/^\uFEFF/, "");
            const read = readHandlersFile(path, body, parts);
            const result = update(original, parts, handlersImport);
            // nothing deleted; every line kept but the import's and the last entries'
            const moved =
              handlersImport === undefined
                ? original
                : original.replace(
                    '"merchant-commerce-api/callbacks"',
                    JSON.stringify(handlersImport),
                  );
            expect(isSubsequence(moved, result.text), "a character of the user's was deleted").toBe(
              true,
            );
            const lineOf = (pos: number) => body.slice(0, pos).split(/\r?\n/).length - 1;
            const originalLines = original.split(/\r?\n/);
            const mayGrow = new Set<number>();
            for (const i of read.imports)
              for (let l = lineOf(i.start); l <= lineOf(i.end); l++) mayGrow.add(l);
            for (const object of [read.callbacks, read.webhooks])
              if (object) mayGrow.add(lineOf(object.lastEntryEnd)).add(lineOf(object.closeBrace));
            const resultLines = new Map<string, number>();
            for (const line of result.text.split(/\r?\n/))
              resultLines.set(line, (resultLines.get(line) ?? 0) + 1);
            originalLines.forEach((line, i) => {
              const left = resultLines.get(line) ?? 0;
              if (left > 0) resultLines.set(line, left - 1);
              else expect(mayGrow.has(i), `line ${i + 1} changed: ${line}`).toBe(true);
            });
            if (crlf) expect(result.text, "a line end that is not CRLF").not.toMatch(/[^\r]\n/);
            // the result: every new event has its entry, every removed one is marked
            const reread = readHandlersFile(path, result.text.replace(/^\uFEFF/, ""), parts);
            const entries = new Set(reread.callbacks.entries.map((e) => e.event));
            for (const handler of parts.callbacks) expect(entries.has(handler.event)).toBe(true);
            const marked = result.changes.filter((c) => c.kind === "marked");
            const removed = before.filter((i) => !after.includes(i));
            expect(
              marked
                .filter((c) => !c.webhook)
                .map((c) => c.event)
                .sort(),
            ).toEqual(removed.map((i) => callbacks[i]!.event).sort());
            if (afterHooks)
              expect(reread.webhooks?.entries.map((e) => e.event).sort()).toEqual([
                "issues",
                "ping",
              ]);
            // idempotent: nothing more to do
            expect(update(result.text, parts, handlersImport).edits).toEqual([]);
          },
        ),
        fuzzParameters(40),
      );
    },
    fuzzTimeout(120_000),
  );
});
