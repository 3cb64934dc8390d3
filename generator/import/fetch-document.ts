/**
 * Fetching an OpenAPI document named by URL (`--spec https://...`), with every wait and read
 * bounded: one timeout over the whole exchange (redirects and body included), a cap on the
 * bytes read (the Content-Length is checked first, the body counted as it streams), at most
 * a few redirects and only on the same host (a redirect elsewhere is refused, not followed),
 * `https:` only, but for loopback hosts (127.0.0.0/8, ::1, localhost), where plain `http:` is
 * allowed: a server on the same machine (a framework's dev server, a test) has no one in
 * between. Every failure is one diagnostic naming the URL without its query (which may carry
 * a token) and the reason; never a stack trace.
 */
import { DiagnosticsError, diagnostic } from "../diagnostics/diagnostic.ts";
import { maxImportFileBytes } from "./document-files.ts";
import { fetchedDocuments, urlShown } from "../load/spec-source.ts";

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

/** Defaults; `APIGEN_FETCH_TIMEOUT_MS` and `APIGEN_FETCH_MAX_BYTES` override them (docs/openapi-documents.md). */
export function fetchLimits(env: NodeJS.ProcessEnv = process.env): FetchLimits {
  const number = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    timeoutMs: number("APIGEN_FETCH_TIMEOUT_MS", 30_000),
    maxBytes: number("APIGEN_FETCH_MAX_BYTES", maxImportFileBytes),
  };
}

/** Most redirects followed (each on the same host). */
const maxRedirects = 5;

const loopbackHost = (host: string): boolean =>
  host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);

/** A refusal or failure as the diagnostic the CLI prints. */
function failed(url: string, reason: string): DiagnosticsError {
  return new DiagnosticsError([diagnostic("spec-url-failed", { url: urlShown(url), reason })]);
}

/** Why `url` may not be fetched, or undefined. */
function refusal(url: URL): string | undefined {
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:")
    return loopbackHost(url.hostname)
      ? undefined
      : "plain http is allowed only on this machine (127.0.0.1, ::1, localhost); use https";
  return `the ${url.protocol} scheme is not fetched; use https`;
}

/**
 * The document's bytes; throws DiagnosticsError on any failure. Fetched once per process:
 * every stage after reads the bytes kept in `fetchedDocuments`.
 */
export async function fetchDocument(
  given: string,
  limits: FetchLimits = fetchLimits(),
): Promise<Uint8Array> {
  const known = fetchedDocuments.get(given);
  if (known) return known;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw failed(given, "it is not a valid URL");
  }
  try {
    for (let redirects = 0; ; redirects++) {
      const refused = refusal(url);
      if (refused) throw failed(given, refused);
      const response = await fetch(url, { redirect: "manual", signal });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        const next = new URL(location, url);
        if (next.host !== url.host)
          throw failed(given, `it redirects to another host (${next.host}), which is not followed`);
        if (redirects >= maxRedirects)
          throw failed(given, `it redirects more than ${maxRedirects} times`);
        url = next;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw failed(given, `the server answered ${response.status}`);
      }
      const bytes = await boundedBody(response, given, limits.maxBytes);
      fetchedDocuments.set(given, bytes);
      return bytes;
    }
  } catch (error) {
    if (error instanceof DiagnosticsError) throw error;
    if (signal.aborted)
      throw failed(given, `no whole answer within ${limits.timeoutMs / 1000} s (the timeout)`);
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const code = typeof cause?.code === "string" ? cause.code : "the connection failed";
    throw failed(given, code);
  }
}

/** The body's bytes, refused past `maxBytes` (by its Content-Length, else as it streams). */
async function boundedBody(response: Response, given: string, maxBytes: number) {
  const tooLarge = () => failed(given, `the document is larger than ${sizeText(maxBytes)}`);
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body)
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      total += chunk.length;
      // leaving the loop cancels the stream
      if (total > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

const sizeText = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`;
