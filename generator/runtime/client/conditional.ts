/**
 * Conditional requests (the spec's `response.notModified`): a GET or HEAD that sends
 * `If-None-Match` or `If-Modified-Since` from its call's options, and takes a 304 as a second
 * success, a `NotModified` carrying the response's validators, rather than an ApiError.
 */
import { isBranded } from "./brand.js";
import type { RequestOptions } from "./core.js";
import { RequestValidationError } from "./errors.js";
import { checkHeaders } from "./params.js";

/** The options of a call to an endpoint that answers 304 Not Modified. */
export interface ConditionalRequestOptions extends RequestOptions {
  /** Sent as `If-None-Match`: the ETag of the copy the caller has (or several, comma-separated, or `*`). */
  ifNoneMatch?: string;
  /** Sent as `If-Modified-Since`: when the caller's copy was last modified (a Date, or an HTTP date). */
  ifModifiedSince?: Date | string;
}

/**
 * A 304 answer: the caller's copy is current. `instanceof NotModified` tells it from the body,
 * also for an answer of the package's other build (brand.ts).
 */
export class NotModified {
  /** Which class this is, for `instanceof` across the package's builds (brand.ts). */
  static readonly "~brand": string = "apigen:NotModified";
  static [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }

  /** Always 304. */
  readonly status = 304 as const;
  /** The response's `ETag`, when it sent one: the validator to send next time. */
  readonly etag: string | undefined;
  /** The response's `Last-Modified`, when it sent one. */
  readonly lastModified: string | undefined;

  constructor(headers: Headers) {
    this.etag = headers.get("etag") ?? undefined;
    this.lastModified = headers.get("last-modified") ?? undefined;
  }
}

/**
 * What an endpoint that answers 304 hands to the runtime beside its data (`OperationCode`'s
 * `conditional`): passed by the endpoints whose spec says `notModified` only, so a bundle of
 * others leaves this module out.
 */
export const conditional: {
  headers: typeof conditionalHeaders;
  answer: (headers: Headers) => NotModified;
} = {
  headers: conditionalHeaders,
  answer: (headers: Headers) => new NotModified(headers),
};

/**
 * The conditional headers of a call, from its options, or undefined when it gives none. A
 * Date that is not a time, or a value no header can carry, is a RequestValidationError naming
 * the option; nothing is sent.
 */
export function conditionalHeaders(
  endpointId: string,
  call: ConditionalRequestOptions,
): Record<string, string> | undefined {
  const { ifNoneMatch, ifModifiedSince } = call;
  if (ifNoneMatch === undefined && ifModifiedSince === undefined) return undefined;
  const out: Record<string, string> = {};
  if (ifNoneMatch !== undefined) out["if-none-match"] = String(ifNoneMatch);
  if (ifModifiedSince instanceof Date) {
    if (Number.isNaN(ifModifiedSince.getTime()))
      throw new RequestValidationError(endpointId, [
        { path: "options.ifModifiedSince", message: "is not a valid Date" },
      ]);
    out["if-modified-since"] = ifModifiedSince.toUTCString();
  } else if (ifModifiedSince !== undefined) out["if-modified-since"] = String(ifModifiedSince);
  checkHeaders(endpointId, out, (name) =>
    name === "if-none-match" ? "options.ifNoneMatch" : "options.ifModifiedSince",
  );
  return out;
}
