import type { CoreOptions } from "../runtime/client/core.ts";

/**
 * Names the generated package exports from its runtime whatever the spec says (the error
 * classes, `ApiPromise`, `Page`, `Stream`, the router's types), and those its modules import
 * from it. A spec type of one of these names would be exported twice from the package's
 * entry, which TypeScript refuses, or imported beside the runtime's in client.ts,
 * callbacks.ts and testing.ts, so the IR refuses it at the type's name and the importer
 * renames such a schema. test/reserved-names.test.ts holds this list to what the emitters
 * re-export and import.
 */
export const runtimeExportNames: ReadonlySet<string> = new Set([
  // runtime/client/core.ts, hooks.ts, pagination.ts, stream.ts (re-exported by client.ts)
  "ApiPromise",
  "BasicCredentialValue",
  "BinaryInput",
  "CoreOptions",
  "CredentialValue",
  "Middleware",
  "MiddlewareContext",
  "MiddlewareStack",
  "Page",
  "PagePromise",
  "RequestOptions",
  "Stream",
  "WithResponse",
  // runtime/client/errors.ts and hooks.ts (re-exported by errors.ts), and what errors.ts declares itself
  "ApiErrorCode",
  "ApiErrorEntry",
  "ApiErrorKind",
  "ClientError",
  "ClientOptionsError",
  "ConnectionError",
  "ErrorCode",
  "errorCodeMeanings",
  "MiddlewareError",
  "MissingCredentialError",
  "PaginationError",
  "RedirectError",
  "RequestValidationError",
  "ResponseParseError",
  "ResponseValidationError",
  "ResponseTooLargeError",
  "StreamParseError",
  "TimeoutError",
  "UserAbortError",
  // runtime/callbacks (re-exported by callbacks.ts beside the spec types it imports)
  "CallbackContext",
  "CallbackRouter",
  "ComputeSignature",
  "DecodeSignature",
  "DeliveryContext",
  // the headers of a delivery whose spec declares none, with a typed payload
  "DeliveryHeaders",
  "FailureCodes",
  "FetchHandler",
  "HeaderReader",
  "InboundRequest",
  "MemorySeenIds",
  "NodeListener",
  "NodeRequestLike",
  "NodeResponseLike",
  "OutboundResponse",
  "ReplayOptions",
  "RequestContext",
  "SeenIdStore",
  "SignatureOptions",
  "SignatureScheme",
  "SignedContent",
  "TypedWebhookRoute",
  "WebhookContext",
  "WebhookRoute",
  "WebhookVerification",
  "WebhookVerifyOptions",
  // runtime/testing (re-exported by testing.ts, the stand-in's entry)
  "DeliverCall",
  "DeliverOptions",
  "DeliveryOutcome",
  "KeySet",
  "RunningStandIn",
  "StandIn",
  "StandInOptions",
  "StandInState",
  // runtime/msw (re-exported by msw.ts, the msw handlers' entry), and what msw.ts declares
  "MswAnswer",
  "MswAnswerRequest",
  "MswAnswers",
  "MswOptions",
  "MswStandIn",
  // runtime/client/features.ts (re-exported by client-features.ts, the browser build's switches)
  "ClientFeature",
  // imported by the generated modules beside the spec's types (not re-exported): a spec type
  // of one of these names would be imported twice there
  "ApiError",
  "BaseRouterOptions",
  "ClientCore",
  "RouterSpec",
  "ResponseValidators",
  "RequestValidators",
  "StandardSchemaV1",
  "StandInTable",
  // runtime/tanstack/query.ts, imported by tanstack-query.ts beside the spec's types
  "EndpointInfiniteQueryOptions",
  "EndpointMutationOptions",
  "EndpointQueryOptions",
  "InfiniteOperationKey",
  "OperationKey",
  "UnknownEvent",
  "UnknownVariant",
  "ValidationIssue",
  "Validator",
]);

/**
 * Values a generated `client.ts` may import or the package's entry re-export beside the
 * endpoint functions: every camelCase export of the runtime modules it reads, and errors.ts's
 * `errorCodeMeanings`. An endpoint function of one of these names (`from.data` would be
 * `fromData`) is given `_` after it (ir/names.ts). test/names.test.ts holds this list to what
 * the emitters import.
 */
export const clientModuleValues: ReadonlySet<string> = new Set(
  // runtime/client/*.ts, validate.ts, validator-data.ts, unions.ts
  (
    "anything array backoffMs baseAddress basicToken binary boolean bounded callArgs check " +
    "child dateFormat dateTimeFormat dateTimeMs declaredHeaders describe discard endpoint endpointOf errorDetails " +
    "fail formBody formats fromData group isBinaryData isPlainObject isRetryableStatus literal " +
    "lowerKeys map maxAttempts maxDepth maxIssues monthDayYearFormat neverReachedServer " +
    "nullable number object oneOf openStream operation pagedEndpoint paginate pathOf " +
    "placeParams queryPair randomNonce redact redactHeaders redactor redirectHop retryAfterMs " +
    "responseValidation schema secretsOf serialize settle sleep string tagged tryParseJson union " +
    "uriFormat uuidFormat " +
    "validate withMiddleware yearMonthFormat " +
    // tanstack/query.ts (imported by tanstack-query.ts beside the endpoint functions)
    "infiniteQueryOptionsOf mutationOptionsOf queryOptionsOf " +
    // errors.ts
    "errorCodeMeanings"
  ).split(" "),
);

/** The client's own options (runtime/client/core.ts `CoreOptions`), every one, as the compiler checks. */
const coreOptionNames = [
  "baseUrl",
  "fetch",
  "headers",
  "logger",
  "middleware",
  "timeoutMs",
  "maxRetries",
  "idempotencyHeader",
  "nonceHeader",
  "maxRedirects",
  "maxResponseBytes",
  "maxErrorBodyBytes",
  "retryBackoffMs",
  "maxRetryBackoffMs",
  "maxRetryAfterMs",
  "maxPages",
  "validateResponses",
  "responseValidators",
  "requestValidators",
  "features",
] as const satisfies readonly (keyof CoreOptions)[];
// A new option of the runtime must be listed above: otherwise this does not compile.
const everyCoreOption: Exclude<keyof CoreOptions, (typeof coreOptionNames)[number]> extends never
  ? true
  : never = true;
void everyCoreOption;

/**
 * Names a credential's client option may not take: the client's own options. A credential of
 * such an id (`fetch`, `headers`) is the option `fetchCredential` (ir/build-ir.ts).
 */
export const clientOptionNames: ReadonlySet<string> = new Set(coreOptionNames);

/**
 * Globals of the language that generated code names where the spec's types are in scope
 * (`Record<string, T>`, `Omit<Base, "a">`, `Promise`, `Blob` for bytes, `JSON.parse`): a type
 * of one of these names would shadow the global there. A spec type of such a name is an
 * error (`type-name-generated`); the importer prefixes such a schema.
 */
export const globalTypeNames: ReadonlySet<string> = new Set(
  "Array Blob JSON NonNullable Omit Pick Promise Readonly Record".split(" "),
);
