/**
 * `errors.codeField` and `errors.messageField`: where the API's error body holds its code and
 * message when the client's usual places do not (`errors[0].code`, `error.code`, `code`, and
 * their `message`): Anthropic's `error.type`, Slack's `error`, Shopify's `errors` when it is a
 * text. Each is a dot path into `errors.body` (a step `name[0]` is a list's first entry:
 * Google's `error.errors[0].reason`), checked against that type when the spec names it: the
 * code a string or number field, the message a string field.
 */
import type { BuildContext } from "./build-context.ts";
import type { Decl } from "./merge.ts";
import type { ErrorCode, FieldPath, NamedType, TypeNode } from "./model.ts";
import { typeAt } from "./build-pagination.ts";
import { parseEntryPath } from "./field-path.ts";
import { resolveType } from "./callback-routing.ts";

/** Whether a field type gives a code: a string, a number, or an enum of them. */
const givesCode = (node: TypeNode) =>
  (node.kind === "primitive" && node.name !== "boolean" && node.name !== "binary") ||
  node.kind === "enum" ||
  (node.kind === "literal" && typeof node.value !== "boolean");

/** Whether a field type gives a message: a string (or an enum or constant of strings). */
const givesText = (node: TypeNode) =>
  (node.kind === "primitive" && node.name === "string") ||
  (node.kind === "enum" && node.values.every((v) => typeof v === "string")) ||
  (node.kind === "literal" && typeof node.value === "string");

/** Whether a field type gives messages: a text, or a list of texts (Jira's `errorMessages`). */
const givesMessages = (node: TypeNode, types: ReadonlyMap<string, NamedType>) =>
  givesText(node) || (node.kind === "array" && givesText(resolveType(node.items, types)));

/** The checked paths of the section's `codeField` and `messageField`. */
export function errorFieldsOf(
  ctx: BuildContext,
  section: Decl | undefined,
  types: readonly NamedType[],
): { codeField?: FieldPath; messageField?: FieldPath } {
  if (!section) return {};
  const byName = new Map(types.map((t) => [t.name, t] as const));
  const body = typeof section.value.body === "string" ? byName.get(section.value.body) : undefined;
  const fieldOf = (key: "codeField" | "messageField", fits: (node: TypeNode) => boolean) => {
    const text = section.value[key];
    if (typeof text !== "string") return undefined;
    const path = parseEntryPath(text);
    if (body) {
      const found = typeAt(body.type, path, byName);
      const problem =
        typeof found === "string"
          ? found
          : fits(resolveType(found, byName))
            ? undefined
            : `is no ${key === "codeField" ? "string or number" : "string (or list of strings)"} field`;
      if (problem) {
        ctx.bag.report(
          "errors-field",
          { key, path: text, problem, body: body.name },
          section.file.locate([...section.path, key]),
        );
        return undefined;
      }
    }
    return path;
  };
  const codeField = fieldOf("codeField", givesCode);
  const messageField = fieldOf("messageField", (node) => givesMessages(node, byName));
  return {
    ...(codeField ? { codeField } : {}),
    ...(messageField ? { messageField } : {}),
  };
}

/**
 * Warns where the error body's code field cannot hold the catalogue's codes: a text field
 * beside numeric codes (a trial of Zoom's API declared `code: string` beside 124 and 3001), or
 * a number field beside text codes. The client would narrow a code it never reads, and the
 * stand-in answer bodies its own checks refuse. The field is `codeField`, else a top-level
 * `code`; a field of another shape (an enum, a union) is left to the validators.
 */
export function checkErrorCodeType(
  ctx: BuildContext,
  section: Decl | undefined,
  types: readonly NamedType[],
  codes: readonly ErrorCode[],
  codeField: FieldPath | undefined,
): void {
  if (!section || codes.length === 0 || typeof section.value.body !== "string") return;
  const byName = new Map(types.map((t) => [t.name, t] as const));
  const body = byName.get(section.value.body);
  if (!body) return;
  const found = typeAt(body.type, codeField ?? ["code"], byName);
  if (typeof found === "string") return;
  const field = resolveType(found, byName);
  if (field.kind !== "primitive") return;
  const numeric = codes.every((c) => typeof c.code === "number");
  const textual = codes.every((c) => typeof c.code === "string");
  const holds =
    field.name === "string"
      ? !numeric
      : field.name === "integer" || field.name === "number"
        ? !textual
        : true;
  if (holds) return;
  ctx.bag.report(
    "error-code-type",
    {
      field: (codeField ?? ["code"]).join("."),
      body: body.name,
      type: field.name,
      codes: numeric ? "numbers" : "texts",
    },
    found.location,
  );
}
