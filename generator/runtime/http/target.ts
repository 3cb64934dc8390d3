/**
 * Request targets: the path and query of what a server received, read as a path whatever
 * it looks like. Shared by the callback router and the stand-in.
 */

/**
 * Targets the WHATWG URL parser would hand back unchanged: a path of letters, digits and
 * `_-~/` (no dot segments, no percent escapes, no leading `//`), and a query of characters
 * it neither encodes nor strips. Anything else goes through `URL`.
 */
const plainTarget = /^\/(?!\/)[\w\-~/]*(?:\?[\w\-.~=&+%]*)?$/;

/** Origin the path of a request target is read against; never a real host. */
const targetOrigin = "http://router.invalid";

/**
 * Path and query of a request target, as `URL` reads them, but without building a `URL`
 * for the plain targets callbacks use; `undefined` when the target is neither a path nor
 * an absolute `http:`/`https:` URL. A target that begins with `/` is always a path: `//host/x`
 * (or `/\host/x`) is the path `//host/x`, never the host `host` and the path `/x` that URL
 * would make of it as a relative reference, so `//evil.example/cart_update` is no route.
 * The absolute form (`http://host/path`, as proxies send it) keeps its path.
 */
export function splitTarget(
  target: string,
): { pathname: string; query: URLSearchParams } | undefined {
  if (plainTarget.test(target)) {
    // the query has no `?` of its own here: URLSearchParams would drop a leading one, URL keeps it
    const at = target.indexOf("?");
    return at < 0
      ? { pathname: target, query: new URLSearchParams() }
      : { pathname: target.slice(0, at), query: new URLSearchParams(target.slice(at + 1)) };
  }
  let url: URL;
  try {
    url = new URL(target.startsWith("/") ? targetOrigin + target : target);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  return { pathname: url.pathname, query: url.searchParams };
}
