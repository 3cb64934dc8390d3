/**
 * Names the generated package exports from its runtime whatever the spec says (the error
 * classes, `ApiPromise`, `Page`, `Stream`, the router's types). A spec type of one of these
 * names would be exported twice from the package's entry, which TypeScript refuses (or
 * imported beside the runtime's in callbacks.ts and testing.ts), so the IR refuses it at the
 * type's name and the importer renames such a schema.
 * test/reserved-names.test.ts holds this list to what the emitters re-export.
 */
export const runtimeExportNames: ReadonlySet<string> = new Set([
  // runtime/client/core.ts, pagination.ts, stream.ts (re-exported by client.ts)
  "ApiPromise",
  "BasicCredentialValue",
  "BinaryInput",
  "CoreOptions",
  "CredentialValue",
  "Page",
  "PagePromise",
  "RequestOptions",
  "Stream",
  "WithResponse",
  // runtime/client/errors.ts (re-exported by errors.ts), and what errors.ts declares itself
  "ApiErrorCode",
  "ApiErrorEntry",
  "ApiErrorKind",
  "ClientError",
  "ClientOptionsError",
  "ConnectionError",
  "ErrorCode",
  "errorCodeMeanings",
  "MissingCredentialError",
  "PaginationError",
  "RedirectError",
  "RequestValidationError",
  "ResponseParseError",
  "ResponseTooLargeError",
  "StreamParseError",
  "TimeoutError",
  "UserAbortError",
  // runtime/callbacks (re-exported by callbacks.ts beside the spec types it imports)
  "CallbackContext",
  "CallbackRouter",
  "ComputeSignature",
  "DecodeSignature",
  "FailureCodes",
  "FetchHandler",
  "HeaderReader",
  "InboundRequest",
  "NodeListener",
  "NodeRequestLike",
  "NodeResponseLike",
  "OutboundResponse",
  "RequestContext",
  "SignatureOptions",
  "SignedContent",
  "TypedWebhookRoute",
  "WebhookContext",
  "WebhookRoute",
  "WebhookVerification",
  "WebhookVerifyOptions",
  // runtime/testing (re-exported by testing.ts, the stand-in's entry)
  "KeySet",
  "RunningStandIn",
  "StandIn",
  "StandInOptions",
  "StandInState",
]);
