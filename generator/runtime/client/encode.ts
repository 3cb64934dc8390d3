/**
 * Request bodies other than JSON: URL-encoded forms (nested values in bracket form, as form
 * APIs such as Stripe's read them), multipart form-data with file parts, raw bytes and text.
 * Only Web APIs (URLSearchParams, FormData, Blob, Response): every runtime builds the same
 * body, and fetch adds the multipart boundary itself.
 */
import { isBinaryData, type BinaryData, type ValidationIssue } from "../validate.js";
import { RequestValidationError } from "./errors.js";

/** How a body is sent; absent in a descriptor: JSON. */
export type BodyEncoding = "form" | "multipart" | "binary" | "text";

/** Deepest nesting a form body is flattened to; deeper (or a cycle) is refused, not looped over. */
const maxDepth = 32;

/** A problem with a body value, raised as a RequestValidationError naming the field. */
class Refused {
  constructor(
    readonly path: string,
    readonly message: string,
  ) {}
}

/** The bytes of a binary value and the name and media type of its file part. */
function unwrap(value: unknown): { data: BinaryData; filename?: string; contentType?: string } {
  return isBinaryData(value)
    ? { data: value }
    : (value as { data: BinaryData; filename?: string; contentType?: string });
}

/** Whether a value is a binary value: bytes, or `{ data: bytes, ... }`. */
function isBinary(value: unknown): boolean {
  return isBinaryData(value) || isBinaryData((value as { data?: unknown } | null)?.data);
}

/** The text of a scalar form value; undefined for a value a form cannot carry. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * Appends `value` under `name` in bracket form: `metadata[order]=1`, `expand[]=a` for an
 * array of scalars, `items[0][price]=p` for an array of objects. null and undefined are left
 * out; a value a form cannot carry is refused at its path.
 */
function appendForm(
  add: (name: string, text: string) => void,
  name: string,
  value: unknown,
  path: string,
  depth: number,
): void {
  if (value === undefined || value === null) return;
  const text = scalarText(value);
  if (text !== undefined) return add(name, text);
  if (typeof value !== "object")
    throw new Refused(path, `cannot be sent in a form: it is a ${typeof value}`);
  if (isBinary(value))
    throw new Refused(path, "cannot be sent in a URL-encoded form: it is binary (use multipart)");
  if (depth >= maxDepth)
    throw new Refused(path, `is nested deeper than ${maxDepth} levels (or is a cycle)`);
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const scalar = item === null || typeof item !== "object";
      appendForm(add, scalar ? `${name}[]` : `${name}[${i}]`, item, `${path}[${i}]`, depth + 1);
    });
    return;
  }
  for (const [key, item] of Object.entries(value))
    appendForm(add, name ? `${name}[${key}]` : key, item, `${path}.${key}`, depth + 1);
}

/** A URL-encoded form of an object body. */
export function formBody(body: unknown): URLSearchParams {
  const search = new URLSearchParams();
  if (typeof body !== "object" || body === null || Array.isArray(body) || isBinary(body))
    throw new Refused("body", "must be an object to be sent as a form");
  appendForm((name, text) => search.append(name, text), "", body, "body", 0);
  return search;
}

/** A Blob of binary data; a stream is read whole, so that the body can be sent again on a retry. */
async function blobOf(data: BinaryData, contentType: string | undefined): Promise<Blob> {
  const blob =
    data instanceof Blob
      ? data
      : "getReader" in data
        ? await new Response(data).blob()
        : new Blob([data as Uint8Array<ArrayBuffer>]);
  return contentType !== undefined && blob.type !== contentType
    ? new Blob([blob], { type: contentType })
    : blob;
}

/**
 * Multipart form-data of an object body: a scalar is a text part, a binary value a file part
 * (its file name and media type, else a File's own, else `blob`), an array one part per
 * item under the same name, and an object its JSON text: what OpenAPI reads a multipart
 * schema as by default.
 */
export async function multipartBody(body: unknown): Promise<FormData> {
  if (typeof body !== "object" || body === null || Array.isArray(body) || isBinary(body))
    throw new Refused("body", "must be an object to be sent as multipart form-data");
  const form = new FormData();
  const part = async (name: string, value: unknown, path: string): Promise<void> => {
    if (value === undefined || value === null) return;
    const text = scalarText(value);
    if (text !== undefined) return form.append(name, text);
    if (isBinary(value)) {
      const { data, filename, contentType } = unwrap(value);
      const blob = await blobOf(data, contentType);
      const own = (blob as { name?: unknown }).name;
      return form.append(name, blob, filename ?? (typeof own === "string" ? own : "blob"));
    }
    if (typeof value !== "object")
      throw new Refused(path, `cannot be sent in a form: it is a ${typeof value}`);
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      // refused below
    }
    if (json === undefined) throw new Refused(path, "cannot be sent as JSON");
    // A text part: a Blob part would be a file (with a file name) to most servers.
    form.append(name, json);
  };
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) await part(name, item, `body.${name}[${i}]`);
    } else await part(name, value, `body.${name}`);
  }
  return form;
}

/** The bytes of a binary body, as they are (a stream is streamed, and so sent once). */
function binaryBody(body: unknown): BodyInit {
  if (!isBinary(body)) throw new Refused("body", "must be binary");
  return unwrap(body).data as BodyInit;
}

/** The body of a call of an endpoint whose body is not JSON; a value it cannot carry is refused. */
export async function encodeBody(
  endpointId: string,
  encoding: BodyEncoding,
  body: unknown,
): Promise<BodyInit> {
  try {
    switch (encoding) {
      case "form":
        return formBody(body);
      case "multipart":
        return await multipartBody(body);
      case "binary":
        return binaryBody(body);
      case "text":
        if (typeof body !== "string") throw new Refused("body", "must be a string");
        return body;
      default: {
        const unhandled: never = encoding;
        throw new Error(`unknown body encoding ${String(unhandled)}`);
      }
    }
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    const issue: ValidationIssue = { path: error.path, message: error.message };
    throw new RequestValidationError(endpointId, [issue]);
  }
}
