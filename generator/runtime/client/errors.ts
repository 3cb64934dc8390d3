/**
 * Errors of the generated client. Every class keeps secrets out of its message, its
 * `toString()`, its `JSON.stringify()` and what `util.inspect` shows: it never holds request
 * headers, and text and headers that came back from the server are redacted against the
 * credentials of the call (redact.ts) before an error keeps them.
 */
import type { ValidationIssue } from "../validate.js";
import { isBranded } from "./brand.js";

/**
 * Base of every error the client throws. `instanceof` it, or any of its subclasses, holds for
 * an error of the package's other build too (brand.ts): its CommonJS and ES module builds
 * loaded in one process.
 */
export class ClientError extends Error {
  /** Which class this is, for `instanceof` across the package's builds (brand.ts). */
  static readonly "~brand": string = "apigen:ClientError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }

  override name = "ClientError";
  constructor(
    message: string,
    /** The endpoint id, e.g. `transactions.get`. */
    readonly endpointId: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /**
   * What JSON.stringify shows: the name, message, endpoint id and the fields of the error's
   * class; not the cause (not enumerable), which may hold request details, nor headers.
   */
  toJSON(): Record<string, unknown> {
    const { headers: _, ...fields } = this as unknown as Record<string, unknown>;
    return { ...fields, message: this.message };
  }
}

/** Status families, for `switch (error.kind)`. */
export type ApiErrorKind =
  | "authentication"
  | "permission"
  | "not_found"
  | "validation"
  | "rate_limit"
  | "server"
  | "client";

/** The kinds of the statuses that have one of their own; others are `server` (5xx) or `client`. */
const kinds: Record<number, ApiErrorKind> = {
  400: "validation",
  401: "authentication",
  403: "permission",
  404: "not_found",
  422: "validation",
  429: "rate_limit",
};

/** One entry of an error body's `errors` array, or its `error` object. */
export interface ApiErrorEntry {
  /** A number (`1005`) or a string (`card_declined`). */
  code?: number | string;
  message?: string;
  [field: string]: unknown;
}

export interface ApiErrorDetails {
  status: number;
  endpointId: string;
  /**
   * Code of the first entry of the body (`errors[0].code`, `error.code`, or `code`): a
   * number or a string.
   */
  code?: number | string;
  /** `.tag` of a v3 body. */
  tag?: string;
  /** The server's own message, as shown in `message`; `HTTP <status>` when it gives none. */
  message: string;
  /** The server's own message, when it gives one (the error body's `message`, or its text). */
  serverMessage?: string;
  /** The request id the server answered with, for its support (see `errors.requestIdHeader`). */
  requestId?: string;
  errors: ApiErrorEntry[];
  /** The parsed JSON body, or the text when it is not JSON. */
  body: unknown;
  headers: Headers;
  /**
   * For an error the API sent inside a stream that had begun (the spec's stream `error`):
   * the index of that item in the stream. The body is the item's data.
   */
  streamItem?: number;
}

/** The API answered with a status outside 2xx. */
export class ApiError extends ClientError {
  static override readonly "~brand": string = "apigen:ApiError";
  override name = "ApiError";
  declare readonly status: number;
  declare readonly kind: ApiErrorKind;
  declare readonly code: number | string | undefined;
  declare readonly tag: string | undefined;
  /** The server's own message, apart from the summary in `message`; undefined when it gives none. */
  declare readonly serverMessage: string | undefined;
  /** The request id of the response (the spec's `errors.requestIdHeader`, else x-request-id and the like). */
  declare readonly requestId: string | undefined;
  declare readonly errors: ApiErrorEntry[];
  declare readonly body: unknown;
  declare readonly headers: Headers;
  /**
   * The index of the stream item that was the error, for an error the API sent inside a
   * stream that had begun (its `status` is then the stream's, 200, unless the item carries
   * one); undefined otherwise.
   */
  declare readonly streamItem: number | undefined;

  constructor({ message, ...details }: ApiErrorDetails) {
    const { endpointId, status, code, tag, serverMessage, requestId, streamItem } = details;
    // a code that is the status again (Spotify's `error.status`) is not said twice
    const label =
      code !== undefined && code !== status ? ` code ${code}` : tag !== undefined ? ` ${tag}` : "";
    const where = streamItem !== undefined ? ` in stream item ${streamItem}` : "";
    super(`${endpointId} failed with ${status}${label}${where}: ${message}`, endpointId);
    Object.assign(this, { code, tag, serverMessage, requestId, streamItem }, details, {
      // A stream that began with a success and then failed is the server's failure.
      kind:
        kinds[status] ??
        (status >= 500 || (streamItem !== undefined && status < 400) ? "server" : "client"),
    });
  }
}

/**
 * No complete response: the name did not resolve, the connection was refused or reset, or
 * the response broke off before its end. The message says which.
 */
export class ConnectionError extends ClientError {
  static override readonly "~brand": string = "apigen:ConnectionError";
  override name = "ConnectionError";
}

/**
 * A redirect the client does not follow: to another origin (credentials are sent only to
 * the configured one), more of them than `maxRedirects`, to an address that is not a URL, or
 * one whose target the runtime hides (a browser's `opaqueredirect`, `status` 0).
 */
export class RedirectError extends ClientError {
  static override readonly "~brand": string = "apigen:RedirectError";
  override name = "RedirectError";
  constructor(
    message: string,
    endpointId: string,
    /** The status of the redirect; 0 where the runtime hides it. */
    readonly status: number,
  ) {
    super(message, endpointId);
  }
}

/** A 2xx whose body goes on past `maxResponseBytes`: the rest was not read. */
export class ResponseTooLargeError extends ClientError {
  static override readonly "~brand": string = "apigen:ResponseTooLargeError";
  override name = "ResponseTooLargeError";
  constructor(
    endpointId: string,
    readonly status: number,
    readonly limit: number,
  ) {
    super(`${endpointId} answered ${status} with a body over the ${limit}-byte limit`, endpointId);
  }
}

/**
 * An option the client cannot work with, found when it is constructed (`endpointId` is
 * empty). The message names the option and never repeats its value, which may hold a secret.
 */
export class ClientOptionsError extends ClientError {
  static override readonly "~brand": string = "apigen:ClientOptionsError";
  override name = "ClientOptionsError";
  constructor(
    readonly option: string,
    problem: string,
  ) {
    super(`${option} ${problem}`, "");
  }
}

/** No complete response within `timeoutMs`. */
export class TimeoutError extends ClientError {
  static override readonly "~brand": string = "apigen:TimeoutError";
  override name = "TimeoutError";
  constructor(
    endpointId: string,
    readonly timeoutMs: number,
  ) {
    super(`${endpointId} timed out after ${timeoutMs} ms`, endpointId);
  }
}

/** The caller's AbortSignal fired. */
export class UserAbortError extends ClientError {
  static override readonly "~brand": string = "apigen:UserAbortError";
  override name = "UserAbortError";
}

/** A 2xx response whose body is not the JSON the endpoint documents. */
export class ResponseParseError extends ClientError {
  static override readonly "~brand": string = "apigen:ResponseParseError";
  override name = "ResponseParseError";
  constructor(
    endpointId: string,
    readonly status: number,
    detail: string,
  ) {
    super(`${endpointId} answered ${status} with ${detail}`, endpointId);
  }
}

/**
 * A streamed response that breaks its declared form: an event's data or a line that is not
 * JSON, an event name a closed stream does not list, a line over the size limit, or a stream
 * that ends before its terminator. The message names the endpoint, the item and its event.
 */
export class StreamParseError extends ClientError {
  static override readonly "~brand": string = "apigen:StreamParseError";
  override name = "StreamParseError";
  constructor(
    endpointId: string,
    detail: string,
    /** The item's index in the stream (0-based, counting the items yielded before it). */
    readonly index: number,
    /** The SSE event name of the item at fault, where it has one. */
    readonly event?: string,
  ) {
    super(`${endpointId}: ${detail}`, endpointId);
  }
}

/** A request that breaks a rule of the spec; nothing was sent. */
export class RequestValidationError extends ClientError {
  static override readonly "~brand": string = "apigen:RequestValidationError";
  override name = "RequestValidationError";
  /** The first field at fault, e.g. `body.tracking_number`. */
  readonly field: string;
  constructor(
    endpointId: string,
    readonly issues: ValidationIssue[],
  ) {
    super(`${endpointId}: ${issues.map((i) => `${i.path} ${i.message}`).join("; ")}`, endpointId);
    this.field = issues[0]?.path ?? "";
  }
}

/** The endpoint needs a credential the client was not given; nothing was sent. */
/** Where a credential travels: a header, a query parameter, or HTTP basic. */
export interface CredentialPlace {
  header?: string | undefined;
  query?: string | undefined;
  basic?: boolean | undefined;
}

export class MissingCredentialError extends ClientError {
  static override readonly "~brand": string = "apigen:MissingCredentialError";
  override name = "MissingCredentialError";
  constructor(
    endpointId: string,
    /** The option, or the options of which any one will do (`apiKey or oauth`). */
    readonly credential: string,
    /** Where it travels: a header, a query parameter, or HTTP basic. */
    sent: CredentialPlace,
  ) {
    super(
      `${endpointId} needs the ${credential} option (sent as ${placeText(sent)}), and the client has none`,
      endpointId,
    );
  }
}

/** Where a credential travels, in words: `X-API-Key`, `Authorization: Basic`, `query parameter api_key`. */
export const placeText = (sent: CredentialPlace): string =>
  sent.header ?? (sent.basic ? "Authorization: Basic" : `query parameter ${sent.query}`);

/**
 * A paged list that cannot go on: the server gave a cursor, token, page or link that this
 * walk already sent (it would walk in a circle), a next link to another origin (credentials
 * go only to the base URL's), a page whose items are not a list, or `nextPage()` of the last
 * page.
 */
export class PaginationError extends ClientError {
  static override readonly "~brand": string = "apigen:PaginationError";
  override name = "PaginationError";
}
