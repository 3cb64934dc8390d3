/**
 * `scaffold-handlers FILE` on a file that is already there: brings it up to date with the
 * spec in place (plan.ts), prints each change, and writes it atomically only when something
 * changed; `--check` writes nothing and exits 1 when the file is not current. Loaded only by
 * this command, as it loads ts-morph and with it the TypeScript compiler.
 */
import { printErr, printOut } from "../cli-io.ts";
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { displayPath } from "../diagnostics/display-path.ts";
import { createEmitContext } from "../emit/context.ts";
import { scaffoldParts } from "../emit/handlers-scaffold.ts";
import type { ApiModel } from "../ir/model.ts";
import { applyEdits, planFileUpdate, type HandlersChange } from "./plan.ts";
import { UpdateRefused } from "./read-file.ts";

/** A handlers file is small: past this it is not one (and is not read whole into memory). */
const maxBytes = 4 * 1024 * 1024;

/** How a change is printed: `added cart.update: stub cartUpdate`. */
export function describeChange(change: HandlersChange, check: boolean): string {
  const verb = (done: string, would: string) => (check ? would : done);
  const what = (event: string, webhook: boolean) =>
    `${webhook ? "webhook event" : "callback"} ${JSON.stringify(event)}`;
  switch (change.kind) {
    case "added":
      return `${verb("added", "would add")} ${what(change.event, change.webhook)}: stub ${change.stub}, not implemented yet`;
    case "marked":
      return `${verb("marked", "would mark")} ${what(change.event, change.webhook)}: no longer in the spec; delete its handler (a compile error until then)`;
    case "still-removed":
      return `${what(change.event, change.webhook)} is no longer in the spec: delete its handler (marked)`;
    case "import":
      return `${verb("import moved", "would move the import")}: ${JSON.stringify(change.from)} -> ${JSON.stringify(change.to)}`;
    case "webhooks-object":
      return `${verb("added", "would add")} the object ${change.name}: pass it as \`webhook: { path, handlers: ${change.name} }\` to createCallbackRouter`;
    default: {
      const unhandled: never = change;
      throw new Error(`unhandled change ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The file's text; refuses what is no regular file, too large, or not UTF-8. */
function readText(file: string): string {
  const stat = statSync(file);
  if (!stat.isFile()) throw new UpdateRefused("it is not a regular file");
  if (stat.size > maxBytes)
    throw new UpdateRefused(`it is ${stat.size} bytes, more than a handlers file's ${maxBytes}`);
  try {
    // a byte order mark stays in the text, so that the file keeps it
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(readFileSync(file));
  } catch {
    throw new UpdateRefused("it is not UTF-8 text");
  }
}

/**
 * Replaces `file` with `text` atomically (a flushed temporary file beside it, renamed over
 * it), with the file's mode, through a symbolic link to where it points; refuses when the file
 * changed since it was read as `before`.
 */
function replaceFile(file: string, before: string, text: string): void {
  const target = realpathSync(file);
  const temporary = join(
    dirname(target),
    `.${basename(target)}.apigen-${randomBytes(4).toString("hex")}`,
  );
  const fd = openSync(temporary, "wx", statSync(target).mode & 0o7777);
  try {
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (readFileSync(target, "utf8") !== before)
      throw new UpdateRefused("it changed while apigen was updating it: run the command again");
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Updates (or with `check` only checks) `file`; the exit code. */
export function updateHandlersFile(
  model: ApiModel,
  specName: string,
  file: string,
  handlersImport: string | undefined,
  check: boolean,
): number {
  const shown = displayPath(file);
  const parts = scaffoldParts(createEmitContext(model, specName));
  let text: string;
  let planned;
  try {
    text = readText(file);
    planned = planFileUpdate(file, text, parts, handlersImport);
  } catch (error) {
    if (!(error instanceof UpdateRefused)) throw error;
    const at = error.line !== undefined ? `${shown}:${error.line}` : shown;
    printErr(
      `${at}: apigen cannot update this handlers file: ${error.reason}. Nothing was written.`,
    );
    return 1;
  }
  const { changes, edits } = planned;
  const lines = changes.map((c) => `  ${describeChange(c, check)}`);
  const count = parts.callbacks.length + parts.webhooks.length;
  if (check) {
    if (changes.length === 0) {
      printOut(`${shown} is current with the spec (${count} handlers)`);
      return 0;
    }
    printErr([`${shown} is not current with the spec:`, ...lines].join("\n"));
    return 1;
  }
  if (edits.length === 0) {
    printOut(
      changes.length === 0
        ? `${shown} is current with the spec (${count} handlers): nothing written`
        : [`${shown}: nothing to write; left to do by hand:`, ...lines].join("\n"),
    );
    return 0;
  }
  try {
    replaceFile(file, text, applyEdits(text, edits));
  } catch (error) {
    if (!(error instanceof UpdateRefused)) throw error;
    printErr(`${shown}: ${error.reason}. Nothing was written.`);
    return 1;
  }
  printOut([`${shown} updated from the spec:`, ...lines].join("\n"));
  return 0;
}
