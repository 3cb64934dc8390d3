/**
 * The resolved model (IR): plain data that every emitter reads, and nothing else.
 * Names and casings are worked out once here; no YAML node survives into it.
 */
import type { FormFieldKind } from "../runtime/callbacks/form.ts";
import type { SignatureScheme } from "../runtime/callbacks/schemes.ts";
import type { StandInModel } from "./stand-in-model.ts";

/** A place in a spec file, 1-based. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
  /** In an OpenAPI document read as the spec (the live route): the JSON pointer there. */
  pointer?: string;
}

/** Something the source says it does not show: a gap, never filled in. */
export interface GapNote {
  /** `note`: an `undocumented` entry of the spec; `untyped`: a value written `unspecified`. */
  kind: "note" | "untyped";
  text: string;
  /** What the note is about, as a readable path: `types.Transaction`, `endpoints.orders.create.response`. */
  subject: string;
  location: SourceLocation;
}

export type Literal = string | number | boolean;

/** `binary`: bytes (a file, an upload, a download), sent and received as they are. */
export type PrimitiveName = "string" | "integer" | "number" | "boolean" | "binary";

export type ValueFormat =
  | "uuid"
  | "uri"
  | "email"
  | "date-time"
  /** A calendar date of ISO 8601 (RFC 3339 full-date): `2024-02-29`. */
  | "date"
  | "timestamp"
  | "currency-code"
  | "MM-DD-YYYY"
  | "YYYY-MM"
  | "serialized-json"
  | "comma-separated"
  | "html"
  | "phone"
  /** An RFC 6570 URI template (GitHub's `https://api.github.com/repos/{owner}/{repo}`). */
  | "uri-template";

export interface Constraints {
  format?: ValueFormat;
  pattern?: string;
  prefix?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** A number's lower bound, itself left out (JSON Schema 2020-12's `exclusiveMinimum`). */
  exclusiveMinimum?: number;
  /** A number's upper bound, itself left out. */
  exclusiveMaximum?: number;
  /** A number is a whole multiple of this (above 0). */
  multipleOf?: number;
  /** An array's fewest items (`minItems`). */
  minItems?: number;
  /** An array's most items (`maxItems`). */
  maxItems?: number;
  /** An array's items differ from one another (`uniqueItems`; only ever true). */
  uniqueItems?: true;
  /** A map's or an object's fewest entries (`minProperties`: 1 on a PATCH body, say). */
  minProperties?: number;
  /** A map's or an object's most entries (`maxProperties`: AWS's 50 tags). */
  maxProperties?: number;
  unit?: string;
}

/** Every facet of `Constraints`, in the order a spec and the OpenAPI document write them. */
export const constraintKeys = [
  "format",
  "pattern",
  "prefix",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "unit",
] as const satisfies readonly (keyof Constraints)[];

/** Documentation carried by any type node, field or operation. */
export interface Docs {
  description?: string;
  notes: GapNote[];
  deprecated?: boolean;
  example?: unknown;
  /** The value the server assumes when the field or parameter is left out (`default:`). */
  default?: unknown;
}

export type TypeShape =
  | { kind: "primitive"; name: PrimitiveName }
  /** Any JSON value. `unspecified`: the source names the value but not its type. */
  | { kind: "unknown"; unspecified: boolean }
  /**
   * A named type. A use of a generic type (`List<Customer>`) names the named type made for
   * those arguments (its instantiation, `NamedType.instance`) and keeps the use in `generic`.
   */
  | { kind: "ref"; name: string; generic?: GenericUse }
  /** A type parameter (`T`): only inside the body of a generic type (`ApiModel.generics`). */
  | { kind: "param"; name: string }
  | { kind: "array"; items: TypeNode }
  | { kind: "map"; values: TypeNode }
  /**
   * `fields` are all of the object's fields, inherited ones included. `open`: further
   * fields exist that the source does not show.
   */
  | { kind: "object"; fields: Field[]; open: boolean; base?: ObjectBase }
  | { kind: "literal"; value: Literal }
  /** `open`: the values are the known ones, not all. */
  | { kind: "enum"; values: Literal[]; open: boolean }
  /**
   * A value of one of `variants`. Tagged (`discriminator`): every variant is a reference to a
   * named object type, `cases[i]` gives the tag value of `variants[i]`; `open`: tags the spec
   * does not list are accepted too. Untagged: any member may match; `open` is false.
   */
  | { kind: "union"; variants: TypeNode[]; discriminator?: Discriminator; open: boolean };

/** How a tagged union tells its variants apart: the tag field and the value naming each variant. */
export interface Discriminator {
  field: string;
  cases: { value: string; type: string }[];
}

export type TypeNode = TypeShape & {
  nullable: boolean;
  constraints: Constraints;
  docs: Docs;
  location: SourceLocation;
};

/** The named object type an object extends. */
export interface ObjectBase {
  name: string;
  /** Fields of the base the object does not take from it: omitted, or declared again. */
  without: string[];
}

export interface Field {
  /** Wire name, exactly as the spec writes it. */
  name: string;
  type: TypeNode;
  required: boolean;
  /** The named type this field comes from through `extends`, if it does. */
  inheritedFrom?: string;
  /**
   * `expandable: true`: an id (`string`) or, when a call asks for it (`Endpoint.expand`), the
   * object it names. The type is `string | Object`, nullable or not.
   */
  expandable?: boolean;
  /**
   * `readOnly`: written by the API only, so request bodies leave it out; `writeOnly`: written
   * by callers only, so answers leave it out (ir/access-views.ts makes the two views).
   */
  access?: FieldAccess;
  location: SourceLocation;
}

/** Who writes a field (`Field.access`): the API only, or its callers only. */
export type FieldAccess = "readOnly" | "writeOnly";

export interface NamedType {
  name: string;
  /**
   * The type as the API writes it: its `writeOnly` fields left out when it has some (the
   * spec's type, with both kinds, is `source`).
   */
  type: TypeNode;
  location: SourceLocation;
  /** The type as the spec declares it, when `type` left `writeOnly` fields out of it. */
  source?: TypeNode;
  /**
   * A view made by ir/access-views.ts, not declared in the spec: the type as callers write it
   * in request bodies (`PetWritable`: `readOnly` fields left out, `writeOnly` ones in),
   * `of` naming the spec's type. The OpenAPI document has no schema of its own for it.
   */
  view?: { of: string };
  /**
   * Made for one use of a generic type (`List<Customer>`): its body with the arguments in
   * place of the parameters. The TypeScript output writes the use, `List<Customer>`, and no
   * declaration of its own; the OpenAPI document has a schema per instantiation.
   */
  instance?: GenericUse;
}

/** A use of a generic type: its name and the type arguments, in the order of its parameters. */
export interface GenericUse {
  name: string;
  args: TypeNode[];
}

/**
 * A type declared with `typeParams` (`List<T>`): its body refers to each parameter as a
 * `param` node. Every use is a named type of its own (`NamedType.instance`).
 */
export interface GenericType {
  name: string;
  params: string[];
  type: TypeNode;
  location: SourceLocation;
}

/**
 * `header`: a header (with an optional scheme); `basic`: HTTP basic, `Authorization: Basic
 * base64(user:pass)`; `query`: a query parameter named `name`; `signature`: signs inbound
 * calls; `none`: documented only.
 */
export type CredentialPlacement = "header" | "basic" | "query" | "signature" | "none";

/** The flows of OpenAPI's OAuth Flows Object, in the order the spec format and OpenAPI list them. */
export const oauthFlowKinds = [
  "clientCredentials",
  "authorizationCode",
  "implicit",
  "password",
  "deviceAuthorization",
] as const;
export type OAuthFlowKind = (typeof oauthFlowKinds)[number];

/** One way of obtaining a token: the URLs it uses (as written: absolute, or relative to the base URL) and the scopes it grants. */
export interface OAuthFlow {
  kind: OAuthFlowKind;
  authorizationUrl?: string;
  tokenUrl?: string;
  refreshUrl?: string;
  deviceAuthorizationUrl?: string;
  /** Scope and what it allows, in the spec's order. */
  scopes: { name: string; description: string }[];
  /**
   * `"json"` when the spec declares its token endpoint as an endpoint (POST at `tokenUrl`)
   * whose body is JSON (Sakari's): the client-credentials grant sends its fields so.
   */
  tokenRequest?: "json";
}

/**
 * How a bearer credential's token is obtained: OAuth 2.0 flows (`in: oauth2`), or an OpenID
 * Connect provider's discovery document (`in: openIdConnect`). Either token travels as
 * `Authorization: Bearer <token>`.
 */
export type TokenSource =
  | { kind: "oauth2"; flows: OAuthFlow[] }
  | { kind: "openIdConnect"; url: string };

/**
 * Where a signed call carries the time it was signed (unix seconds): a header of its own, or
 * an item of the comma-separated signature header (`t` of `t=1700000000,v1=...`).
 */
export interface SignedTimestamp {
  in: "header" | "signature";
  name: string;
  /** An RFC 3339 date-time (Twitch's EventSub); absent: unix seconds. */
  format?: "date-time";
}

/** Where a call carries an id unique to its delivery: a header, or a top-level field of the JSON body. */
export interface DeliveryIdPlace {
  in: "header" | "body";
  name: string;
}

/** What a signature credential says a call carries besides the signature, for replay protection. */
export interface ReplayPlaces {
  timestamp?: SignedTimestamp;
  deliveryId?: DeliveryIdPlace;
}

/**
 * How a signature is written and what it covers (`scheme:` of an `in: signature`
 * credential): the callback runtime's own type (`runtime/callbacks/schemes.ts`), which the
 * route tables carry as it is: base64 or hex HMAC-SHA256 of the raw body or of what a `signs`
 * template spells, Stripe's `t=,v1=`, or Standard Webhooks.
 */
export type { SignatureScheme };

export interface Credential {
  id: string;
  /** The client's option of the credential: the id, or `<id>Credential` for an id the client's own options hold (`fetch`). */
  optionName: string;
  /** PascalCase of the id, for generated names. */
  pascalName: string;
  placement: CredentialPlacement;
  header?: string;
  scheme?: string;
  /** Query parameter name of an `in: query` credential. */
  name?: string;
  /** Of an `in: signature` credential: where a call carries its signing time (declared, or implied by its scheme). */
  timestamp?: SignedTimestamp;
  /** Of an `in: signature` credential: where a call carries its delivery id (declared, or implied by its scheme). */
  deliveryId?: DeliveryIdPlace;
  /** Of an `in: signature` credential: its scheme (`hmac-sha256-base64` where the spec names none). */
  signing?: SignatureScheme;
  /** Of an `in: oauth2` or `in: openIdConnect` credential (a bearer token in Authorization): where its token comes from. */
  tokenSource?: TokenSource;
  /**
   * Of an `in: basic` credential: the half of the pair the API fixes (Mailgun's user name
   * `api`; Stripe's empty password); the client's option is then the other half, a string.
   */
  basicFixed?: { username: string } | { password: string };
  usedBy?: string;
  rules: string[];
  docs: Docs;
  location: SourceLocation;
}

export interface Environment {
  name: string;
  /** The address; a template where it has `variables` (`https://{subdomain}.example.com`). */
  baseUrl?: string;
  /** The variables of `baseUrl`, in spec order; each `{name}` of it is one. */
  variables: ServerVariable[];
  docs: Docs;
  location: SourceLocation;
}

/** A variable of an environment's address: the caller's value, else `default`. */
export interface ServerVariable {
  name: string;
  /** Absent: the caller must give a value (the client's `serverVariables`). */
  default?: string;
  /** The values it may take, when the spec lists them. */
  enum?: string[];
  docs: Docs;
  location: SourceLocation;
}

/**
 * Another address some endpoints are served from (`hosts:`): uploads on files.example.com
 * while the API is on api.example.com. The client's `hosts` option sets it; `baseUrl` is its
 * default, without which the option must give one.
 */
export interface Host {
  /** camelCase: the key of the client's `hosts` option. */
  name: string;
  baseUrl?: string;
  docs: Docs;
  location: SourceLocation;
}

export interface HeaderSpec {
  name: string;
  value?: string;
  /** Type of a variable header's value, when the spec gives one. */
  schema?: TypeNode;
  required: boolean;
  docs: Docs;
}

export type ParamPlacement = "path" | "query" | "trailing" | "header";

/**
 * How a query array or object is written: `repeat` (`a=1&a=2`, the default), `comma`
 * (`a=1,2`), `space` (`a=1%202`, OpenAPI's spaceDelimited), `pipe` (`a=1|2`, pipeDelimited),
 * `brackets` (`a[]=1&a[]=2`), `deepObject` (`a[gte]=1`).
 */
export type QueryStyle = "repeat" | "comma" | "space" | "pipe" | "brackets" | "deepObject";

export interface Param {
  /** The key of the spec's `params`: the parameters interface's property. */
  name: string;
  /**
   * A query or header parameter's name on the wire when it is not `name` (`name:` of the
   * spec: a query parameter `id` beside the path parameter `id` is keyed `id_query`).
   */
  wireName?: string;
  camelName: string;
  placement: ParamPlacement;
  required: boolean;
  type: TypeNode;
  /** What the URL text of the parameter is turned into before validation; absent: kept as a string. */
  urlValue?: "number" | "boolean";
  /** Query parameters: how an array or object is written (absent: `repeat`). */
  style?: QueryStyle;
  /** The client sends `type.docs.default` when the caller leaves the parameter out. */
  sendDefault?: boolean;
  /**
   * A path parameter whose value may hold `/`: sent as path segments, each percent-encoded
   * (the path's whole last segment, a catch-all on the server).
   */
  slashes?: true;
  location: SourceLocation;
}

/** Parameters of an endpoint or callback, emitted as one interface. */
export interface ParamsType {
  name: string;
  /** `endpoint transactions.get` or `callback account.login`. */
  owner: string;
  params: Param[];
}

export type ErrorStatus = number | "4xx" | "5xx";

export interface ErrorResponse {
  /** Absent: the code appears with any error status. */
  status?: ErrorStatus;
  code?: ErrorCodeValue;
  tag?: string;
  /** Where this response was declared to apply. */
  scope:
    | { kind: "endpoint" }
    | { kind: "all" }
    | { kind: "pathPrefix"; prefix: string }
    | { kind: "version"; version: string };
  docs: Docs;
  location: SourceLocation;
}

export interface ApiVersion {
  name: string;
  /** The path prefix of the version's endpoints; absent when the API is versioned by a header. */
  prefix?: string;
  errorBody?: string;
  invalidInputStatus?: number;
  docs: Docs;
  location: SourceLocation;
}

/**
 * How the API tells its versions apart: `path-prefix`, each version's endpoints under its own
 * prefix; `header`, every endpoint in every version, the version named by a request header.
 */
export interface Versioning {
  scheme: "path-prefix" | "header";
  /** Versioning by header: the request header that names the version (`X-GitHub-Api-Version`). */
  header?: string;
  /**
   * Versioning by header: the version this package is written for, which the client sends
   * unless its `apiVersion` option names another of `versions`.
   */
  current?: string;
  versions: ApiVersion[];
  rules: string[];
  docs: Docs;
}

export interface Endpoint {
  id: string;
  /** The group as the spec writes it (the first part of the id). */
  group: string;
  /** `TransactionsApi`: the class and interface of the group's methods (ir/names.ts). */
  groupClassName: string;
  /** `transactions`: the client's member of the group; `constructor_` for `constructor` (ir/names.ts). */
  groupProperty: string;
  /** Method name inside the group, camelCase as written. */
  name: string;
  /** The group's member of the method: `name`, or `name_` where that would break a member (ir/names.ts). */
  methodName: string;
  /** `TransactionsAuthorize`: for generated type names, unique among operations (ir/names.ts). */
  pascalName: string;
  /** `transactionsAuthorize`: the standalone function of the endpoint, which a bundler keeps only when it is used. */
  functionName: string;
  summary?: string;
  method: HttpMethod;
  path: string;
  version?: string;
  /** Every credential the endpoint sends, optional ones included. */
  auth: string[];
  /** Those of `auth` sent when the client has them: the call works without them. */
  optionalAuth: string[];
  /** The OAuth scopes a credential's token needs for this endpoint, by credential id (only credentials with scopes). */
  authScopes?: Record<string, string[]>;
  /**
   * Credentials of `optionalAuth` of which any one will do (`anyOf`): a call needs one of
   * them, and the client sends the first it has, in this order.
   */
  authAnyOf?: string[];
  headers: HeaderSpec[];
  params: Param[];
  /** Name of the generated interface of `params` (`TransactionsGetParams`), when there are any. */
  paramsTypeName?: string;
  body?: TypeNode;
  /**
   * The body as the spec declares it, when `body` is its writable view (ir/access-views.ts:
   * `PetWritable` for `Pet`): the OpenAPI document names the spec's type.
   */
  bodySource?: TypeNode;
  /** `validateTransactionsAuthorizeBody`: the local validator of a body written inline (not a named type). */
  bodyValidatorName?: string;
  /** How the body is sent, when there is one. */
  requestBody?: RequestBody;
  /** The call may leave the body out (`bodyOptional: true`): nothing is sent then. */
  bodyOptional?: true;
  response: EndpointResponse;
  /** How the endpoint pages, when it does: its list call also walks every item (`for await`). */
  pagination?: Pagination;
  /** Which expandable fields of the answer the call may ask for, and where it asks. */
  expand?: EndpointExpand;
  /** The response when the body's boolean `flag` is true (a stream); `response` otherwise. */
  streamResponse?: StreamResponse;
  /** The name of the `hosts:` entry it is served from; absent: the API's base address. */
  host?: string;
  /** Own errors plus every scoped error response that applies, sorted by status then code. */
  errors: ErrorResponse[];
  rules: string[];
  testingOnly: boolean;
  /** Where the endpoint is documented further (`externalDocs:`): the method's `@see`. */
  externalDocs?: ExternalDocs;
  docs: Docs;
  location: SourceLocation;
}

/** A link to further documentation, with what it is. */
export interface ExternalDocs {
  url: string;
  description?: string;
}

/**
 * `expand:` of an endpoint: the query parameter or body field (`string[]`) that lists the
 * expandable fields the answer should carry as objects; the result's type follows it.
 */
export interface EndpointExpand {
  name: string;
  in: "query" | "body";
  /**
   * Every path the call may ask for, dotted from the response body (`customer`,
   * `data.customer`: arrays add no step), in field order. A path ends at an expandable field.
   */
  paths: string[];
}

/**
 * How a request body goes on the wire: `json` (JSON text), `form` (URL-encoded, nested values
 * in bracket form), `multipart` (form-data, binary fields as file parts), `binary` (the bytes
 * as they are), `text` (a string).
 */
export type RequestEncoding = "json" | "form" | "multipart" | "binary" | "text";

export interface RequestBody {
  encoding: RequestEncoding;
  /** The media type of the body. */
  contentType: string;
  /**
   * The Content-Type header the client sends: the media type, whether or not the spec lists
   * the header; absent for `multipart`, whose header fetch writes with its boundary.
   */
  header?: string;
}

/**
 * What a success response carries: `json` (parsed), `binary` (a Blob), `text` (a string),
 * `none` (no body: the call returns void), `sse` (server-sent events) and `jsonl` (JSON
 * lines): a stream of items, each typed by `stream`.
 */
export type ResponseKind = "json" | "binary" | "text" | "none" | "sse" | "jsonl";

/** One named event of a server-sent event stream and the type of its data. */
export interface StreamEvent {
  /** The SSE event name, exactly as the server sends it. */
  name: string;
  /** The data's type: JSON, or `string` for data kept as text. */
  type: TypeNode;
  location: SourceLocation;
}

/**
 * What a streamed response (kind `sse` or `jsonl`) yields. Without `events` every item is
 * the response's `body` type (an SSE event's data, or one JSON line).
 */
export interface StreamFacts {
  /** Named SSE events in spec order; empty: every event's data is `body`. */
  events: StreamEvent[];
  /** An event name not in `events` arrives as an unknown event (true) or is the stream error. */
  open: boolean;
  /** An SSE data value that ends the stream; not yielded. */
  terminator?: string;
  /** Name of the generated union of the named events (`MessagesStreamEvent`), when there are events. */
  eventTypeName?: string;
  /** The item that is the API's error once the stream has begun: not yielded, thrown. */
  error?: StreamError;
}

/**
 * How a stream says it failed after it began (`error` of a stream response): by a top-level
 * key of an item's JSON (`field`, OpenAI's `{"error": {...}}`) or, in server-sent events, by
 * an event name (`event`, Anthropic's `event: error`). Exactly one of the two. The item's data
 * is read as an error body, and the iteration throws the API's error class.
 */
export interface StreamError {
  field?: string;
  event?: string;
  /** The type of the error item's data, when the spec gives it. */
  body?: TypeNode;
  /** An integer field of `body` carrying the status to throw with; absent: the response's. */
  status?: FieldPath;
  docs: Docs;
  location: SourceLocation;
}

/** The response of an endpoint when its body's boolean `flag` is true: a stream. */
export interface StreamResponse extends EndpointResponse {
  /** The body field that asks for the stream, e.g. `stream`. */
  flag: string;
  location: SourceLocation;
}

/** How a declared response header's text becomes its typed value. */
export type HeaderParse = "string" | "integer" | "number" | "boolean";

export interface ResponseHeader {
  /** The header name as the spec writes it: the key of the typed headers object. */
  name: string;
  /** Declared once for every endpoint (`responseHeaders:`), not by this response itself. */
  apiWide?: true;
  type: TypeNode;
  parse: HeaderParse;
  docs: Docs;
  location: SourceLocation;
}

export interface EndpointResponse {
  status: number;
  body?: TypeNode;
  kind: ResponseKind;
  /** Media type of the body; absent for `none`. */
  contentType?: string;
  /**
   * The Accept header the client sends: JSON, or a binary or text body's media type with
   * JSON after it (error bodies are JSON).
   */
  accept: string;
  /** Declared response headers, in spec order. */
  headers: ResponseHeader[];
  /** Name of the generated interface of `headers` (`IssuesListResponseHeaders`), when there are any. */
  headersTypeName?: string;
  /** What each item of a stream is: present exactly for the kinds `sse` and `jsonl`. */
  stream?: StreamFacts;
  /**
   * A conditional GET or HEAD (`notModified: true`): given `ifNoneMatch`/`ifModifiedSince`, the
   * call resolves to a `NotModified` on a 304 instead of throwing.
   */
  notModified?: true;
  /** A second 2xx answered with no body instead (Spotify's 204): the call resolves to undefined. */
  emptyStatus?: number;
  docs: Docs;
}

/** The paging styles of the format: `pagination.style`. */
export type PaginationStyle = "cursor" | "nextToken" | "offset" | "page" | "link";

/** A dot path into a value, one field name per step (`links.next` is `["links", "next"]`). */
export type FieldPath = readonly string[];

/**
 * How an endpoint pages, every name checked against its parameters and response type. The
 * body is a JSON object or array; `items` reaches the page's array of items.
 */
export type Pagination = {
  /** The body field holding the items; empty: the body is the array. */
  items: FieldPath;
  /** The type of one item: the element type of the `items` array. */
  itemType: TypeNode;
  location: SourceLocation;
  /**
   * `false` when the spec says an empty page is not the last (styles nextToken, page and
   * link); absent: an empty page ends the walk.
   */
  stopOnEmptyPage?: false;
  /**
   * `"body"` when the value that moves the walk on (and the page size) are fields of the
   * request body, which every page sends again with that one field changed (a POST search);
   * absent: they are query parameters.
   */
  in?: "body";
} & PagingRule;

/** What each style reads to find the next page, and where it stops. */
export type PagingRule =
  | {
      style: "cursor";
      /** Query parameter (or request body field, `in: "body"`) that takes the cursor. */
      param: string;
      /** Field of the last item that gives the next cursor. */
      cursor: FieldPath;
      hasMore?: FieldPath;
    }
  | {
      style: "nextToken";
      param: string;
      /** Body field of the next token; absent, null or empty on the last page. */
      token: FieldPath;
      hasMore?: FieldPath;
    }
  | {
      style: "offset";
      /** Query parameter of the offset; the next is this one plus the items of the page. */
      offset: string;
      /** Query parameter of the page size (it need not be a parameter of the endpoint). */
      limit: string;
      /** The offset of the first page when the caller gives none: the parameter's default, else 0. */
      start: number;
      total?: FieldPath;
      hasMore?: FieldPath;
    }
  | {
      style: "page";
      page: string;
      perPage: string;
      /** The first page when the caller gives none: the parameter's default, else 1. */
      start: number;
      total?: FieldPath;
      hasMore?: FieldPath;
    }
  | {
      style: "link";
      /** Response header of the `rel="next"` link (`Link`); absent when `field` gives it. */
      header?: string;
      /** Body field of the next page's URL. */
      field?: FieldPath;
    };

/** QUERY: HTTP's safe, idempotent request with a body (endpoints only). */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS" | "QUERY";

export interface Callback {
  event: string;
  /** `ProductInfo`: for generated type names, unique among operations (ir/names.ts). */
  pascalName: string;
  /** `productInfo`: the handler's name in the scaffold, unique and never a reserved word. */
  camelName: string;
  /** `ProductInfoResult`: the type of what its handler answers. */
  resultTypeName: string;
  summary?: string;
  method: HttpMethod;
  path: string;
  auth: string[];
  headers: HeaderSpec[];
  params: Param[];
  /** Name of the generated interface of `params` (`AccountLoginParams`), when there are any. */
  paramsTypeName?: string;
  body?: TypeNode;
  success?: TypeNode;
  failure?: TypeNode;
  /** How the callback router serves this callback, read off its credentials and response types. */
  routing: CallbackRouting;
  rules: string[];
  docs: Docs;
  location: SourceLocation;
}

/** What the callback router needs to know about one callback, worked out once from the model. */
export interface CallbackRouting {
  /** Header of the signature: the first `in: signature` credential of the callback's auth. */
  signatureHeader?: string;
  /** That credential's scheme. */
  signatureScheme?: SignatureScheme;
  /** Where calls carry their signing time and delivery id, as that credential declares. */
  replay?: ReplayPlaces;
  /** Field the router fills with the event name in every answer, when every response type has it. */
  responseEvent?: string;
  /** Where the failure bodies the router writes itself put their parts; absent: the generic shape. */
  failureShape?: FailureShape;
  /**
   * A body sent as a URL-encoded form (the callback's `Content-Type`): how each top-level
   * field's text is read; absent: a JSON body.
   */
  form?: Record<string, FormFieldKind>;
}

/**
 * Where a failure body puts its parts; every name comes from the spec's failure type. The
 * callback runtime takes the same shape (`runtime/callbacks/failure.ts`).
 */
export interface FailureShape {
  /** Fields with one fixed value, e.g. `{ status: "failure" }`. */
  fixed: Record<string, Literal>;
  /** Field that carries the callback's event name (`event`). */
  event?: string;
  /** Field that holds the error (`error`), or a list of errors (`errors`, `list: true`). */
  container?: { field: string; list: boolean };
  /** Field of the numeric code, e.g. `code`. */
  code?: string;
  /** Field of the explanation: a string (`message`), or a list of objects with one text field (`data: [{ reason }]`). */
  text?: { field: string; item?: string };
}

/** An error code: a number (`1005`) or a string (`card_declined`). */
export type ErrorCodeValue = number | string;

export interface ErrorCode {
  code: ErrorCodeValue;
  /** camelCase constant name. */
  name: string;
  meaning: string;
  docs: Docs;
  location: SourceLocation;
}

export interface StatusInfo {
  status: ErrorStatus | number;
  meaning: string;
  retry: boolean;
  /**
   * The server promises a request answered with this status was not processed (`notProcessed:
   * true`): the client retries it for every method, with or without an idempotency key.
   */
  notProcessed: boolean;
  docs: Docs;
}

/** One event of the webhooks, with the payload its deliveries carry. */
export interface WebhookEvent {
  /** The event's name as deliveries carry it: `issues`, `payment_intent.succeeded`. */
  name: string;
  /** `PaymentIntentSucceeded`: for generated names. */
  pascalName: string;
  payload: TypeNode;
  /** The body a receiver answers a delivery with, where the API reads one (a handshake's challenge). */
  success?: TypeNode;
  /** How that answer is sent: JSON, or a string as the text itself (Twitch's challenge). */
  answerAs?: "json" | "text";
  docs: Docs;
  location: SourceLocation;
}

/** Where a delivery names its event: a request header (`X-GitHub-Event`) or a top-level payload field (`type`). */
export interface WebhookEventSelector {
  in: "header" | "field";
  name: string;
}

export interface Webhooks {
  registration: string[];
  auth: string[];
  /** Header of the signature of deliveries, when they are signed. */
  signatureHeader?: string;
  /** The scheme of that signature. */
  signatureScheme?: SignatureScheme;
  /** Where deliveries carry their signing time and delivery id, as the signature credential declares. */
  replay?: ReplayPlaces;
  eventGroups: { value: string; description?: string }[];
  /** One payload for every delivery (no `events`). */
  payload?: TypeNode;
  /** Where the event is named; present exactly when `events` is not empty. */
  eventSelector?: WebhookEventSelector;
  /**
   * The delivery headers the spec declares (`headers:`), as an object type whose fields are
   * the header names, each a scalar: validated by the router and handed to handlers typed.
   * Absent: none declared.
   */
  headers?: TypeNode;
  /** Each declared delivery header and what its text becomes before validation (worked out with the routing). */
  headerValues?: { name: string; as?: "number" | "boolean" }[];
  /**
   * With a header selector: the top-level payload field that every event's payload declares
   * as its own name (`type: { const: issues }`), so the signed body names the event too and
   * the router checks that the header agrees.
   */
  bodyEventField?: string;
  /** The events the spec lists, each with its payload, in spec order; empty: one `payload` for all. */
  events: WebhookEvent[];
  rules: string[];
  docs: Docs;
  location: SourceLocation;
}

export interface Lifecycle {
  name: string;
  states: string[];
  transitions: {
    from: string[];
    to?: string;
    trigger?: string;
    condition?: string;
    effect?: string;
    docs: Docs;
  }[];
  docs: Docs;
  location: SourceLocation;
}

export interface Limit {
  name: string;
  status?: number;
  docs: Docs;
  location: SourceLocation;
}

export interface ApiInfo {
  /** npm package name. */
  packageName: string;
  title: string;
  version: string;
  clientName: string;
  /** Class of the API's errors, e.g. `MerchantApiError` for `MerchantClient`. */
  errorClassName: string;
  /** `MerchantCore` for `MerchantClient`: what the standalone endpoint functions take. */
  coreClassName: string;
  /** `MerchantEndpointId` for `MerchantClient`: the union of the endpoint ids (middleware's). */
  endpointIdTypeName: string;
  /**
   * `MerchantEnvironments` for `MerchantClient`: the addresses of the environments the spec
   * gives one for, by name (the client's `environment` option); declared only when it does.
   */
  environmentsName: string;
  baseUrlName: string;
  callbackBaseUrlName: string;
  /** The client's defaults the spec sets (`api.clientDefaults`); the runtime's otherwise. */
  clientDefaults?: ClientDefaults;
  docs: Docs;
  location: SourceLocation;
}

/** Client options whose default the package sets, for an API slower or flakier than most. */
export interface ClientDefaults {
  timeoutMs?: number;
  maxRetries?: number;
}

export interface ApiModel {
  api: ApiInfo;
  /** Spec files the model was read from, relative to the working directory, sorted. */
  sourceFiles: string[];
  environments: Environment[];
  /** Other addresses endpoints are served from, in spec order (`Endpoint.host` names one). */
  hosts: Host[];
  credentials: Credential[];
  /** Optional request headers the API accepts across endpoints (`headers:` entries without a value). */
  sharedHeaders: HeaderSpec[];
  /**
   * Headers every request sends with a fixed value (`headers:` entries with one), in spec
   * order; an endpoint's own fixed header of the same name wins.
   */
  fixedHeaders: HeaderSpec[];
  /**
   * Response headers every endpoint's success response may carry (`responseHeaders:`), in
   * spec order; each endpoint's `response.headers` holds them too (marked `apiWide`), after
   * its own, unless it declares one of the same name.
   */
  responseHeaders: ResponseHeader[];
  idempotency: { supported: boolean; header?: string; docs: Docs };
  versioning: Versioning;
  errors: {
    codes: ErrorCode[];
    statuses: StatusInfo[];
    responses: ErrorResponse[];
    /**
     * What the client retries beyond and against its defaults (408, 429, 5xx): the numeric
     * statuses marked `retry: true`, and those marked `retry: false`; `anyMethod`: the
     * statuses marked `notProcessed: true`, retried for every method.
     */
    retry: { statuses: number[]; never: number[]; anyMethod: number[] };
    /** Response header of the request id an ApiError keeps; absent: the runtime's usual names. */
    requestIdHeader?: string;
    /**
     * Where the error body holds its code and message (`errors.codeField`, `messageField`:
     * Anthropic's `error.type`), when not where the client looks by default.
     */
    codeField?: FieldPath;
    messageField?: FieldPath;
    /**
     * The named type of the API's error bodies (`errors.body`): the client's `error.body`, the
     * stand-in's error answers and the OpenAPI error responses; a version's `errorBody` wins.
     */
    body?: string;
    docs: Docs;
  };
  types: NamedType[];
  /** Generic types (`typeParams`), in declaration order; their uses are among `types`. */
  generics: GenericType[];
  /** Interfaces generated for operation parameters, in endpoint then callback order. */
  paramsTypes: ParamsType[];
  /**
   * The named types and parameters interfaces that get a validator, in the order above: by
   * default those the package's code checks, with all they refer to (ir/validated.ts).
   */
  validated: string[];
  endpoints: Endpoint[];
  callbacks: Callback[];
  /** The catalogue's code for a refused callback signature (named `signatureInvalid`); else 422. */
  callbackSignatureCode: number;
  webhooks?: Webhooks;
  lifecycles: Lifecycle[];
  limits: Limit[];
  /** Every gap note of the model, in the order the model noted them (`--gaps` lists them by place). */
  gaps: GapNote[];
  /** What the stand-in serves and the trigger sends (`<package>/testing`, `mock`, `trigger`). */
  standIn: StandInModel;
}
