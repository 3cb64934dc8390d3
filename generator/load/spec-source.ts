/**
 * What `--spec` (or the config's `spec`) names: a spec folder, an OpenAPI document file (JSON
 * or YAML), or the `https://` URL of one. The document routes read it at every build as the
 * spec, no spec folder in between (import/live.ts). A URL is fetched once per process, before
 * the pipeline runs (import/fetch-document.ts), and kept here for the run and the up-to-date
 * check, which are synchronous.
 *
 * Only `node:` modules are imported: the up-to-date check uses this.
 */
import { statSync } from "node:fs";

export type SpecSourceKind = "folder" | "document" | "url";

/** Whether `spec` is a URL (any scheme: one that is not https is refused when fetched). */
export const isSpecUrl = (spec: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(spec);

/** File names that say "an OpenAPI document" when no such file exists yet. */
const documentName = /\.(json|ya?ml)$/i;

/**
 * A URL; a regular file (through links); a folder; else, for a path that does not exist,
 * a document when its name ends in .json, .yaml or .yml (so the error says the document
 * cannot be read), a folder otherwise.
 */
export function specSourceKind(spec: string): SpecSourceKind {
  if (isSpecUrl(spec)) return "url";
  try {
    return statSync(spec).isDirectory() ? "folder" : "document";
  } catch {
    return documentName.test(spec) ? "document" : "folder";
  }
}

/**
 * A URL as messages and generated files show it: without credentials, query or fragment,
 * which may carry a token (secrets never appear in errors or output).
 */
export function urlShown(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "the document's URL";
  }
}

/** Largest file of an OpenAPI document read (the document, or a file its `$ref`s reach). */
export const maxDocumentFileBytes = 64 * 1024 * 1024;

/** Documents fetched by this process, by the URL given: the bytes every stage reads. */
export const fetchedDocuments = new Map<string, Uint8Array>();

/**
 * Local copies of what a document's remote `$ref`s name (the config's `refMap`, `--ref-map
 * URL=PATH`): each key a URL prefix (`https://schemas.example.org/v1/`), each value the
 * absolute path of the copy, a folder (the rest of the URL is a path in it) or, for a whole
 * file's URL, that file. The importer reads no network: a remote `$ref` is read from its
 * copy, or refused.
 */
export type RefMap = Readonly<Record<string, string>>;

/** Whether `prefix` may be a key of a `RefMap`: an http:// or https:// URL with a host. */
export const isRefMapPrefix = (prefix: string): boolean => /^https?:\/\/[^/]/i.test(prefix);

/** How far a document's `$ref`s reach besides its own folder. */
export interface DocumentReachOptions {
  /** A wider folder holding the document (`--ref-root`). */
  refRoot?: string;
  /** Local copies of remote `$ref`s' targets, by URL prefix. */
  refMap?: RefMap;
}

/** The reach `options` sets, for spreading into other options: no key whose value is unset. */
export function reachOf(options: {
  refRoot?: string | undefined;
  refMap?: RefMap | undefined;
}): DocumentReachOptions {
  return {
    ...(options.refRoot !== undefined ? { refRoot: options.refRoot } : {}),
    ...(options.refMap !== undefined && Object.keys(options.refMap).length > 0
      ? { refMap: options.refMap }
      : {}),
  };
}
