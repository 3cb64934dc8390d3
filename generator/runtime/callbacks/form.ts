/**
 * A callback whose body is a URL-encoded form (`Content-Type: application/x-www-form-urlencoded`,
 * as Twilio's status callbacks and Slack's slash commands are sent): the fields as the body's
 * validator checks them, each text read as the spec's type of that field says (a number, a
 * boolean, a list of repeated keys), as query parameters are read.
 */
import { strictText } from "../http/body.js";

/** How a form field's text is read; a field not listed stays text (the last, if repeated). */
export type FormFieldKind = "number" | "boolean" | "list" | "numbers" | "booleans";

/** One text as `kind` reads it: a number or boolean where it is one, else the text as sent. */
function read(text: string, kind: FormFieldKind | undefined): unknown {
  if (kind === "number" || kind === "numbers") {
    const n = Number(text);
    return text.trim() !== "" && Number.isFinite(n) ? n : text;
  }
  if (kind === "boolean" || kind === "booleans")
    return text === "true" ? true : text === "false" ? false : text;
  return text;
}

/**
 * The fields of a form body, or undefined for bytes that are not UTF-8. A key written with
 * brackets (`MediaUrl[]`) is the field of its name.
 */
export function formFields(
  bytes: Uint8Array,
  kinds: Readonly<Record<string, FormFieldKind>>,
): Record<string, unknown> | undefined {
  const text = strictText(bytes);
  if (text === undefined) return undefined;
  const values = new Map<string, string[]>();
  // forEach, not for-of: iterating URLSearchParams needs the DOM.Iterable lib a package may not have
  new URLSearchParams(text).forEach((value, key) => {
    const name = key.endsWith("[]") ? key.slice(0, -2) : key;
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
  });
  const out: Record<string, unknown> = {};
  for (const [name, list] of values) {
    const kind = Object.hasOwn(kinds, name) ? kinds[name] : undefined;
    const many = kind === "list" || kind === "numbers" || kind === "booleans";
    // a field named `__proto__` is an own field, never the prototype
    Object.defineProperty(out, name, {
      value: many ? list.map((t) => read(t, kind)) : read(list.at(-1)!, kind),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The form body of `fields` as a callback's caller sends it: each list item a repeated key. */
export function formText(fields: unknown): string {
  const form = new URLSearchParams();
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return "";
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value])
      form.append(name, typeof item === "object" ? JSON.stringify(item) : String(item));
  }
  return form.toString();
}
