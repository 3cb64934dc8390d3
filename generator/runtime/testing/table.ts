/**
 * The stand-in's route table: what the generator worked out from the spec, as plain data
 * (printed into the generated `src/testing.ts`), plus the generated validators of each
 * route. Every meaning (which refusal a credential gets, which error body an area uses,
 * which state an endpoint keeps) is decided by the generator; the runtime only follows it.
 */
import type { Validator } from "../validate.js";
import type { DeliveryEvent } from "./deliver.js";
import type { RouteExpand } from "./expand.js";
import type { RoutePaging } from "./paging.js";
import type { Shape, ShapeTable } from "./shape.js";

/** A refusal the stand-in answers: status, the catalogue's code or tag, and words for people. */
export interface Refusal {
  status: number;
  code?: string | number;
  tag?: string;
  message: string;
}

/**
 * How an error body is built: `slot` takes the refusal's code, tag, message or HTTP status
 * (`otherwise` where the refusal has none, for a field the body requires; else left out);
 * `fixed` is a value of the field's type (a constant, or one made up for a required field the
 * refusal does not fill); `list` repeats its item once per message (one per validation issue).
 */
export type ErrorTemplate =
  | {
      slot: "code" | "tag" | "message" | "status";
      /** The slot's value when the refusal has none: made up in the field's type... */
      otherwise?: unknown;
      /**
       * ...or, for a code field any integer or any text may fill, the refusal's HTTP status or
       * its reason tag (`bad_request`): never a code of the catalogue that means something else.
       */
      fromStatus?: "status" | "tag";
    }
  | { fixed: unknown }
  | { fields: [string, ErrorTemplate][] }
  | { list: ErrorTemplate };

/** One credential an endpoint checks, and what it answers when the value is absent or refused. */
export interface CredentialCheck {
  credential: string;
  /** `header` (with an optional `scheme` such as `Bearer`), `basic` (Authorization: Basic) or `query`. */
  in: "header" | "basic" | "query";
  /** Header or query parameter name. */
  name: string;
  scheme?: string;
  /** Sent when the caller has it: its absence is no refusal. */
  optional?: boolean;
  /** Of the endpoint's credentials of which any one will do: missing only when all of them are. */
  either?: boolean;
  missing: Refusal;
  rejected: Refusal;
}

/** A parameter the stand-in reads off the request before the params validator sees it. */
export interface RouteParam {
  /** The key of the parameters object the validators check. */
  name: string;
  /** The name it travels under, when it is not `name` (a query parameter keyed `id_query`). */
  wire?: string;
  in: "path" | "query" | "header" | "trailing";
  /**
   * What the URL text becomes before validation (absent: a string); `scalar`, of a union of
   * scalars: a boolean or a number where the text is one, else the text.
   */
  urlValue?: "number" | "boolean" | "scalar";
  /** An array parameter: every occurrence (and comma-separated parts) are kept. */
  list?: boolean;
  /**
   * An object parameter of style deepObject (`filter[status]=open&filter[tags][]=a`): each field
   * the type lists, with what its text becomes and whether it is a list (`[]` after its key).
   */
  fields?: Readonly<Record<string, { urlValue?: "number" | "boolean" | "scalar"; list?: true }>>;
  /** The path's last parameter, a catch-all: every segment from its own on, joined by `/`. */
  slashes?: true;
  /**
   * What separates an array's items in one value instead of a comma: a space (style `space`,
   * OpenAPI's spaceDelimited) or `|` (style `pipe`, pipeDelimited).
   */
  delimiter?: " " | "|";
  /**
   * A path parameter sharing its segment with other text: the texts its type lists (a closed
   * enum), which tell where it begins (`{id}{ext}` with `ext` one of `.json`).
   */
  values?: string[];
}

/** What a success answers. `note`: why the body is what it is, sent as `X-Apigen-Stand-In`. */
export interface RouteResponse {
  status: number;
  kind: "json" | "binary" | "text" | "none" | "sse" | "jsonl";
  contentType?: string;
  body?: Shape;
  /** A stream's named events, each sent once in order (SSE `event:` lines). */
  events?: { name: string; shape: Shape }[];
  /** An SSE data value that ends the stream (`[DONE]`), sent last. */
  terminator?: string;
  /**
   * The stream's error item, sent when `Prefer: stream-error` asks for it: an item whose JSON
   * has the top-level key `field`, or an SSE event named `event`; its data built by `template`.
   */
  error?: { field?: string; event?: string; template: ErrorTemplate };
  /** Response headers the spec declares, each with its value's shape. */
  headers?: { name: string; shape: Shape }[];
  note?: string;
  /**
   * A conditional GET: the answer carries an `ETag` (a hash of its body) and `Last-Modified`,
   * and a request whose `If-None-Match` or `If-Modified-Since` matches them gets a 304.
   */
  notModified?: true;
}

/** A route's part in the stand-in's memory: a collection it adds to or removes from, or a lifecycle step. */
export type RouteState =
  | { kind: "create"; collection: string }
  | { kind: "delete"; collection: string; param: string }
  | { kind: "transition"; lifecycle: string; to: string; param: string };

/** One endpoint of the spec, as the stand-in serves it. */
export interface RouteData {
  endpoint: string;
  method: string;
  /** Path template, `{name}` for path parameters. */
  path: string;
  /** Key of `errorBodies` the endpoint's refusals use. */
  errorBody: string;
  /** Status of a request the validators refuse. */
  invalidInput: number;
  /** Tag of that refusal, when the error body has a tag. */
  invalidInputTag?: string;
  /** The code of that refusal, where the spec lists an error of its status with one. */
  invalidInputCode?: string | number;
  credentials: CredentialCheck[];
  params: RouteParam[];
  /** How the request body is sent, when there is one. */
  body?: "json" | "form" | "multipart" | "binary" | "text";
  /** A call may leave the body out: a request without one is not refused. */
  bodyOptional?: true;
  response: RouteResponse;
  /** The answer when the JSON body's boolean `flag` is true: a stream. */
  streamResponse?: RouteResponse & { flag: string };
  /** The refusals the spec lists for the endpoint, for `Prefer: code=` and `Prefer: error=`. */
  errors: Refusal[];
  state?: RouteState;
  /** Where a request lists the fields to expand, and the answer's expandable paths. */
  expand?: RouteExpand;
  /** How the answer pages: a walk of two pages (paging.ts). */
  paging?: RoutePaging;
  /**
   * Of an API versioned by a header: what the route answers under each version other than
   * the current one (whose answers are the route's own), by version.
   */
  byVersion?: Record<string, RouteArea>;
}

/** The parts of a route that follow its version: error body, invalid-input status, refusals. */
export type RouteArea = Pick<
  RouteData,
  "errorBody" | "invalidInput" | "invalidInputTag" | "invalidInputCode" | "credentials" | "errors"
>;

/** Of an API versioned by a header: the header, the versions, and the one a request without it gets. */
export interface VersionHeader {
  name: string;
  versions: string[];
  current: string;
}

/** A route with the generated validators of its parameters and body. */
export interface Route extends RouteData {
  validateParams?: Validator;
  validateBody?: Validator;
}

/** Records the spec says a create endpoint makes and a delete endpoint removes. */
export interface Collection {
  name: string;
  /** Response field that carries the new record's id, and the id's prefix (`wh_`). */
  idField: string;
  idPrefix: string;
  /** Answer to a create whose body equals a stored one, when the spec asks for uniqueness. */
  duplicate?: Refusal;
  notFound: Refusal;
}

/** A path prefix of the spec (a version) with its own error body and invalid-input status. */
export interface Area {
  prefix: string;
  errorBody: string;
  invalidInput: number;
}

/** Everything the stand-in serves. */
export interface StandInTable {
  title: string;
  routes: Route[];
  types: ShapeTable;
  errorBodies: Record<string, ErrorTemplate>;
  areas: Area[];
  /** Error body and invalid-input status outside every area. */
  fallback: Area;
  collections: Collection[];
  notFound: Refusal;
  /**
   * The paths of the spec's server addresses, longest first (`/api/v2` of
   * https://app.launchdarkly.com/api/v2): a request under one that no route matches as it is
   * is routed by what follows it, so a client or proxy that keeps the server's path reaches
   * the stand-in too.
   */
  basePaths?: string[];
  rateLimited: Refusal;
  /** The tag of a refusal without one, by status, for error bodies with a tag. */
  reasonTags: Record<number, string>;
  /** Of an API versioned by a header: which header names the version (routes' `byVersion`). */
  versionHeader?: VersionHeader;
  /** The callbacks and webhook events the service sends, which `standIn.deliver` sends (their shapes in `types`). */
  events?: DeliveryEvent[];
  /** The token endpoints of OAuth credentials' clientCredentials flows, which the stand-in serves (token.ts). */
  tokenEndpoints?: TokenEndpoint[];
}

/**
 * Where an OAuth credential's clientCredentials flow asks for tokens: the path of its token
 * URL (a relative one as it is, an absolute one's path), and the scopes the flow grants.
 */
export interface TokenEndpoint {
  path: string;
  /**
   * The origin of a token URL the spec writes absolute (`https://auth.example.com`): the msw
   * handlers take its requests there too. Absent for one relative to the base URL.
   */
  origin?: string;
  credential: string;
  scopes: string[];
  /**
   * The spec declares the token endpoint as an endpoint taking JSON (Sakari's): the request's
   * fields come as a JSON object, and the token endpoint answers before that route does.
   */
  json?: true;
}

/** The table as plain data: every route without its validators (what JSON can hold). */
export interface StandInData extends Omit<StandInTable, "routes"> {
  routes: RouteData[];
}

/** The generated validators of a route's parameters and body, by endpoint id. */
export type RouteValidators = Record<string, { params?: Validator; body?: Validator }>;

/**
 * The table from its data and the validators of each endpoint. The generated `testing.ts`
 * holds the data as one JSON text (the printer and the type-checker read a string, not a
 * large object literal) and the validators beside it.
 */
export function tableOf(data: StandInData, validators: RouteValidators): StandInTable {
  const routes = data.routes.map((route): Route => {
    const own = validators[route.endpoint];
    return {
      ...route,
      ...(own?.params ? { validateParams: own.params } : {}),
      ...(own?.body ? { validateBody: own.body } : {}),
    };
  });
  return { ...data, routes };
}
