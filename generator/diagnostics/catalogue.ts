/**
 * Every diagnostic the generator can report: code, severity and message template.
 * Templates use `{name}` placeholders filled from the diagnostic's arguments.
 */
export const catalogue = {
  "no-spec-files": { severity: "error", message: "no *.yaml spec files found in {dir}" },
  "spec-dir-missing": {
    severity: "error",
    message:
      "spec folder {dir} does not exist (`apigen init` writes a new one; --spec DIR or apigen.config.json names another)",
  },
  "config-unreadable": {
    severity: "error",
    message: "cannot read the config file {file}: {reason}",
  },
  "config-syntax": { severity: "error", message: "the config file is not JSON: {detail}" },
  "config-several": {
    severity: "error",
    message:
      "{files} are each a config file; apigen reads one: remove the others, or name one with --config FILE",
  },
  "config-module-syntax": { severity: "error", message: "{file} does not parse: {detail}" },
  "config-module-failed": { severity: "error", message: "{file} failed as it ran: {detail}" },
  "config-module-no-default": {
    severity: "error",
    message:
      "{file} exports no config: end it with export default defineConfig({ ... }) (module.exports = { ... } in CommonJS)",
  },
  "config-module-timeout": {
    severity: "error",
    message: "{file} did not finish within {seconds} s; a config must settle its value",
  },
  "config-module-needs-typescript": {
    severity: "error",
    message:
      "reading {file} needs the typescript package (apigen's peer dependency), which is not installed: npm install -D typescript",
  },
  "config-not-object": {
    severity: "error",
    message:
      '{file} must hold an API, an object such as { "spec": "spec", "out": "generated" }, or an array of them, not {actual}',
  },
  "config-empty": { severity: "error", message: "{file} holds an empty array: no API to run" },
  "config-api-not-object": {
    severity: "error",
    message:
      'each API of the array is an object such as { "name": "shop", "spec": "spec", "out": "generated" }, not {actual}',
  },
  "config-unknown-key": {
    severity: "error",
    message: "unknown key {key} in {where}{hint}",
  },
  "config-wrong-value": { severity: "error", message: "{key} must be {expected}, not {actual}" },
  "config-missing-key": {
    severity: "error",
    message:
      "this API has no {keys}: each API of an array has a name (for --api NAME), a spec and an out",
  },
  "config-duplicate": {
    severity: "error",
    message: "{key} {value} is given to two APIs (the first at {first}); each API has its own",
  },
  "spec-file-unreadable": { severity: "error", message: "cannot read this spec file: {reason}" },
  "spec-not-utf8": {
    severity: "error",
    message: "byte 0x{byte} is not UTF-8 text; spec files must be saved as UTF-8",
  },
  "yaml-control-character": {
    severity: "error",
    message:
      "control character {char} is not allowed in a spec file (only tab and line breaks are)",
  },
  "yaml-lone-surrogate": {
    severity: "error",
    message:
      "escape of {char} is half of a UTF-16 surrogate pair, which is no character; write the character itself (or both halves of its pair)",
  },
  "yaml-too-deep": {
    severity: "error",
    message: "nested more than {max} levels deep; a spec never needs this much, so it is refused",
  },
  "yaml-alias-unresolved": {
    severity: "error",
    message: "alias *{name} has no anchor &{name} before it",
  },
  "yaml-alias-cycle": {
    severity: "error",
    message: "alias *{name} is inside the node its anchor names, so its value would be infinite",
  },
  "yaml-alias-bomb": {
    severity: "error",
    message:
      "aliases add more than {max} nodes to a file of {own} nodes; refused as a YAML alias bomb (repeat the text, or use fewer aliases)",
  },
  "yaml-syntax": { severity: "error", message: "YAML syntax: {detail}" },
  "yaml-duplicate-key": { severity: "error", message: "duplicate key {key} in the same mapping" },
  "yaml-not-a-mapping": {
    severity: "error",
    message: "a spec file must be a mapping of sections (api, types, endpoints, ...)",
  },
  "schema-unknown-key": {
    severity: "error",
    message: "unknown key {key} here{hint}; expected one of: {allowed}",
  },
  "schema-comma-in-flow": {
    severity: "error",
    message:
      "unknown key {key} here: inside `{ }` a comma ends a value, so the value of {field} stopped at the comma; quote it: {field}: {value}",
  },
  "schema-missing-key": { severity: "error", message: "missing required key {key}" },
  "schema-wrong-type": { severity: "error", message: "expected {expected}, got {actual}" },
  "schema-not-allowed": {
    severity: "error",
    message: "{value} is not allowed here{hint}; expected one of: {allowed}",
  },
  "schema-bad-name": { severity: "error", message: "{what} {value} is not {pattern}" },
  "schema-bad-value": { severity: "error", message: "{detail}" },
  "api-missing": {
    severity: "error",
    message: "no spec file declares the `api` section (name, title, version)",
  },
  "duplicate-declaration": {
    severity: "error",
    message: "{kind} {name} is declared twice; the first is at {first}",
  },
  "type-expr-syntax": {
    severity: "error",
    message: "cannot read type expression {expr}: {detail}",
  },
  "unresolved-ref": { severity: "error", message: "unknown type {name}{hint}" },
  "generic-arity": {
    severity: "error",
    message: "{name} takes {expected}, not {given}",
  },
  "generic-unknown-param": {
    severity: "error",
    message: "{name} is neither a parameter of {generic} ({params}) nor a type{hint}",
  },
  "generic-param-not-concrete": {
    severity: "error",
    message:
      "type parameter {param} of {generic} cannot be {use}: a type parameter stands for any type",
  },
  "generic-param-shadows": {
    severity: "error",
    message:
      "type parameter {param} of {generic} has the name of a type, which it would hide in the body; rename the parameter",
  },
  "generic-expansion": {
    severity: "error",
    message:
      "{use} makes uses of generic types without end (more than {maxDepth} nested, or {max} in all): a generic type's body uses it with a bigger argument",
  },
  "type-conflict": { severity: "error", message: "{detail}" },
  "union-not-allowed": {
    severity: "error",
    message: "{value} is a union, but {key} takes one named type",
  },
  "union-variant-twice": {
    severity: "error",
    message:
      "{type} is already the variant of tag {first}; a type carries one value of its tag field {field}, so give tag {tag} a type of its own (one that extends {type})",
  },
  "union-variant-not-object": {
    severity: "error",
    message:
      "{union}: the variant of tag {tag} must be a named object type (not nullable), and {type} is not one",
  },
  "error-code-type": {
    severity: "warning",
    message:
      "the error body's {field} ({body}) is a {type}, but the codes of errors.codes are {codes}: the client narrows codes the body never holds, and the stand-in answers bodies its own checks refuse; make them agree",
  },
  "response-empty-status": {
    severity: "error",
    message: "emptyStatus {status} {problem}",
  },
  "union-open-untagged": {
    severity: "warning",
    message:
      "open lets a tagged union take tags it does not list; this union is a list of members without a tag, so a value must match one of them: open is left out (write the union as a mapping of tag values with a discriminator to take members it does not list)",
  },
  "idempotency-header-param": {
    severity: "warning",
    message:
      "{name} of {endpoint} is the API's idempotency header ({header}), which a call's idempotencyKey option sends; a parameter of that name is written over the key: declare it once, in idempotency.header (the client's idempotencyKey then sends it)",
  },
  "facet-of-another-kind": {
    severity: "warning",
    message:
      "{key} holds {facetKind} to a limit, and this type is {type}: no check holds it, so it is left out{hint}",
  },
  "facet-on-container": {
    severity: "warning",
    message:
      "{key} holds a text or a number to a limit, and this type is {kind}: left out, as no check would hold it{hint}",
  },
  "union-tag-not-string": {
    severity: "error",
    message:
      "{union}: the tag field {field} is {actual}, and a union's tags are strings: tell its variants apart by a string field, or write the union without a discriminator (a plain union)",
  },
  "union-tag-conflict": {
    severity: "error",
    message: "{union}: tag {tag} names {field}, which is {actual}; it must admit {tag}",
  },
  "extends-not-object": {
    severity: "error",
    message: "{name} can only extend an object type, and {base} is not one",
  },
  "omit-unknown-field": {
    severity: "error",
    message: "omit names {field}, which {base} does not have",
  },
  "infinite-type": {
    severity: "error",
    message:
      "type {name} can only be infinite: {cycle} (make a field optional or nullable to end the chain)",
  },
  "alias-cycle": {
    severity: "error",
    message:
      "type {name} is an alias of itself: {cycle} (TypeScript cannot declare it; put an object or array in the cycle)",
  },
  "path-param-undeclared": {
    severity: "error",
    message: "path parameter {{name}} is not declared in params",
  },
  "path-param-unused": {
    severity: "error",
    message: "parameter {name} is declared `in: path` but {path} has no {{name}}",
  },
  "path-template-syntax": {
    severity: "error",
    message: "path {path} has a malformed parameter placeholder",
  },
  "unknown-credential": { severity: "error", message: "unknown credential {name}{hint}" },
  "unknown-endpoint": { severity: "error", message: "unknown endpoint {name}{hint}" },
  "webhook-event-selector-missing": {
    severity: "error",
    message:
      "webhooks.events needs eventHeader (the request header that names the event, e.g. X-GitHub-Event) or eventField (the payload field that does, e.g. type)",
  },
  "webhook-event-selector-twice": {
    severity: "error",
    message: "eventHeader and eventField both say where a delivery names its event; keep one",
  },
  "webhook-events-missing": {
    severity: "error",
    message:
      "{key} says where a delivery names its event, but webhooks lists no events (add events: name -> { payload })",
  },
  "webhook-payload-and-events": {
    severity: "error",
    message:
      "webhooks has both payload (one payload for every delivery) and events (a payload per event); keep one",
  },
  "webhook-event-field": {
    severity: "error",
    message: 'deliveries of {event} carry {field}: "{event}", but {problem}',
  },
  "webhook-event-clash": {
    severity: "error",
    message:
      "webhook event {name} has the name of a callback; the OpenAPI document keys both by name under `webhooks`",
  },
  "credential-replay-misplaced": {
    severity: "error",
    message:
      "{key} belongs to a signature credential (`in: signature`), where the router reads it; credential {name} is `in: {placement}`",
  },
  "credential-replay-name": {
    severity: "error",
    message: "{key} {value} is not {expected}",
  },
  "signature-scheme-unknown": {
    severity: "error",
    message: "unknown signature scheme {value} (the schemes: {known}){hint}",
  },
  "signature-prefix-misplaced": {
    severity: "error",
    message:
      "prefix belongs to a signature credential whose scheme is hmac-sha256-base64 or hmac-sha256-hex (the text before the digest, e.g. sha256=); credential {name} {why}",
  },
  "signature-signs-misplaced": {
    severity: "error",
    message:
      "signs belongs to a signature credential whose scheme is hmac-sha256-base64 or hmac-sha256-hex (what the digest covers, e.g. v0:{timestamp}:{body}); credential {name} {why}",
  },
  "signature-signs-invalid": {
    severity: "error",
    message: "signs {value} of credential {name} is not a template the router can read: {problem}",
  },
  "signature-signs-place": {
    severity: "error",
    message:
      "signs of credential {name} names {slot}, the value of a header, but {why}; declare it: `{key}: { in: header, name: <header> }`",
  },
  "signature-scheme-place": {
    severity: "error",
    message:
      "scheme {scheme} reads {what} from {expected}, so {key} must be `in: {place}` (or left out: {implied})",
  },
  "signature-timestamp-item": {
    severity: "warning",
    message:
      "credential {name} carries the signing time in the {item}= item of {header}, but its scheme {scheme} writes the digest alone there; name the scheme that writes both (`scheme: timestamped`), or the router needs a signature.decode and compute of the receiver's",
  },
  "delivery-id-field": {
    severity: "error",
    message:
      "credential {credential} reads the delivery id of {what} from the body field {field}, which is no field of {body}: the router reads the body there (a path of fields joined by dots reaches a nested one), so every delivery would be refused; name a field it has (or read the id from a header)",
  },
  "callback-delivery-id-body": {
    severity: "error",
    message:
      "callback {event} has no body, so it cannot carry the delivery id that credential {credential} reads from the body field {field}",
  },
  "callback-unsigned": {
    severity: "warning",
    message:
      "{what} is not signed: its auth names no `in: signature` credential{named}, so the callback router accepts it from anyone who can reach the server; add one to its auth (docs/callbacks.md)",
  },
  "unknown-version": {
    severity: "error",
    message: "path {path} matches no version prefix ({prefixes})",
  },
  "unknown-version-name": {
    severity: "error",
    message: "unknown version {name}; declared: {declared}",
  },
  "versioning-key-misplaced": {
    severity: "error",
    message:
      "`{key}` belongs to versioning by {belongs}; this API is versioned by {scheme} (`scheme: header` versions by a request header)",
  },
  "versioning-key-missing": {
    severity: "error",
    message: "versioning by {scheme} needs `{key}`: {why}",
  },
  "versioning-current-unknown": {
    severity: "error",
    message: "current version {name} is not one of the versions listed: {declared}",
  },
  "host-unknown": {
    severity: "error",
    message: "host {name} is not one of the API's `hosts:` ({declared})",
  },
  "not-modified-misplaced": {
    severity: "error",
    message: "`notModified` {why}",
  },
  "param-header-conditional": {
    severity: "error",
    message:
      "header parameter {name} is what `notModified` sends from the call's `{option}` option; leave the parameter out",
  },
  "header-fixed-reserved": {
    severity: "error",
    message: "header {name} cannot be sent with one value on every request: {why}",
  },
  "unknown-error-code": { severity: "error", message: "error code {code} is not in errors.codes" },
  "duplicate-endpoint-route": {
    severity: "error",
    message: "{method} {path} is also endpoint {other}",
  },
  "type-name-generated": {
    severity: "error",
    message: "type {name} has the name of {what}; rename it",
  },
  "type-name-reserved": {
    severity: "error",
    message:
      "type {name} has the name of one the generated package exports from its runtime; rename it",
  },
  "endpoint-path-names-differ": {
    severity: "error",
    message:
      "{path} is the path of endpoint {other} ({otherPath}) with other parameter names; OpenAPI gives both one path item, so name the parameters alike",
  },
  "duplicate-callback-route": {
    severity: "error",
    message: "{method} {path} is also callback {other}",
  },
  "credential-header-missing": {
    severity: "error",
    message: "credential {name} is sent `in: {placement}` but names no header",
  },
  "credential-key-misplaced": {
    severity: "error",
    message: "{key} does not belong on credential {name} (`in: {placement}`): {why}",
  },
  "credential-flows-missing": {
    severity: "error",
    message:
      "credential {name} is `in: oauth2` but lists no flows (`flows:`, e.g. `clientCredentials: { tokenUrl, scopes }`)",
  },
  "credential-url-missing": {
    severity: "error",
    message:
      "credential {name} is `in: openIdConnect` but names no discovery document (`url:`, the provider's .well-known/openid-configuration)",
  },
  "credential-url-invalid": {
    severity: "error",
    message: "{key} {value} is not an https: or http: URL, nor a path relative to the base URL",
  },
  "auth-scopes-misplaced": {
    severity: "error",
    message: "scopes are asked of credential {name}, but {why}",
  },
  "auth-credential-twice": {
    severity: "error",
    message:
      "credential {name} is listed twice in this auth; a call sends it once, with the scopes of one entry (scopes any one of which will do cannot be said yet: list those every alternative needs)",
  },
  "auth-any-of-misplaced": {
    severity: "error",
    message: "anyOf (credentials of which any one will do) cannot be here: {why}",
  },
  "auth-scope-unknown": {
    severity: "error",
    message: "scope {scope} is granted by no flow of credential {name}{hint}",
  },
  "credential-name-missing": {
    severity: "error",
    message: "credential {name} is sent `in: query` but names no query parameter (`name:`)",
  },
  "param-placement-callback": {
    severity: "error",
    message:
      "parameter {name} is `in: {placement}`: callbacks take path, query and trailing parameters only",
  },
  "param-style-misplaced": {
    severity: "error",
    message: "parameter {name} has `style: {style}`, which only a query parameter takes",
  },
  "auth-header-shared": {
    severity: "error",
    message:
      "credentials {first} and {second} are both required, and both travel in the {header} header, which a request sends once; if either will do, mark each `optional: true` (sent when the client has it)",
  },
  "param-slashes": {
    severity: "error",
    message:
      "parameter {name} has `slashes: true`, but {problem}: a value with slashes is sent as the path's last segments, for a catch-all parameter",
  },
  "param-query-shape": {
    severity: "error",
    message: "query parameter {name} {problem}",
  },
  "param-value-shape": {
    severity: "error",
    message:
      "{placement} parameter {name} {problem}, which a {placement} parameter cannot carry (a scalar, or a list of scalars sent comma-separated); make it a string the caller writes as the server reads it",
  },
  "param-header-duplicate": {
    severity: "error",
    message: "header parameter {name} is also listed in the endpoint's `headers:`; keep one",
  },
  "param-name-misplaced": {
    severity: "error",
    message:
      "parameter {name} is `in: {placement}`: only a query or header parameter takes `name:` (its name on the wire)",
  },
  "param-wire-name": {
    severity: "error",
    message:
      "header parameter {name} has `name: {wire}`, which is no HTTP header name (a token: letters, digits and !#$%&'*+-.^_`|~)",
  },
  "param-wire-duplicate": {
    severity: "error",
    message:
      "parameter {name} would travel as the {placement} parameter {wire}, as {first} does; give one of them another `name:`",
  },
  "param-header-name": {
    severity: "error",
    message:
      "header parameter {name} is not an HTTP header name (a token: letters, digits and !#$%&'*+-.^_`|~); fetch would refuse every call",
  },
  "param-header-reserved": {
    severity: "error",
    message:
      "header parameter {name} is a header the client sets: use `headers:` for Accept and Content-Type, a credential for Authorization; fetch writes Content-Length, Host, Connection and the other framing headers itself",
  },
  "head-response-body": {
    severity: "error",
    message: "a HEAD response has no body; declare the GET endpoint's body instead",
  },
  "param-default-missing": {
    severity: "error",
    message: "parameter {name} has `sendDefault: true` but no `default:` to send",
  },
  "generated-name-taken": {
    severity: "warning",
    message:
      "type {name} has the name of the {what} generated for {owner}, which is called {given} instead; rename the type to keep {name} for it",
  },
  "enum-mixed-types": {
    severity: "error",
    message: "enum values must all be of one type; found {types}",
  },
  "pattern-invalid": {
    severity: "error",
    message: "pattern {pattern} is not a JavaScript regular expression: {detail}",
  },
  "pattern-length-conflict": {
    severity: "error",
    message: "no string fits: {detail}; correct the pattern or the lengths",
  },
  "range-conflict": {
    severity: "error",
    message: "no value fits: {low} is {relation} {high}; correct one of them",
  },
  "pattern-backtracking": {
    severity: "warning",
    message:
      "pattern {pattern} repeats a group that itself repeats; a hostile string can make it run for minutes (catastrophic backtracking): rewrite it without the nested repetition",
  },
  "content-type-conflict": {
    severity: "error",
    message:
      "header Content-Type: {header} disagrees with contentType {contentType}; list one of them, or make them agree",
  },
  "body-content-type": {
    severity: "error",
    message: "{detail}",
  },
  "stream-key-misplaced": {
    severity: "error",
    message: "`{key}` belongs to {owner}; this response is {contentType}",
  },
  "stream-body-and-events": {
    severity: "error",
    message:
      "a stream gives `body` (the type of every event's data) or `events` (the type of each named event's data), not both",
  },
  "stream-payload-missing": {
    severity: "error",
    message: "a {contentType} response needs {needs}",
  },
  "stream-response-kind": {
    severity: "error",
    message:
      "`streamResponse` is the stream a flag asks for: its contentType must be text/event-stream, application/jsonl or application/x-ndjson, not {contentType}",
  },
  "stream-response-twice": {
    severity: "error",
    message:
      "`response` of endpoint {endpoint} is already a stream; `streamResponse` gives the stream a flag switches to, beside a response that is not one",
  },
  "stream-error-item": {
    severity: "error",
    message: "the stream's `error` {problem}",
  },
  "status-not-processed": {
    severity: "error",
    message: "notProcessed on status {status}: {problem}",
  },
  "stream-flag": {
    severity: "error",
    message: "stream flag {flag} {problem}",
  },
  "delivery-header-type": {
    severity: "error",
    message:
      "delivery header {name} must be string, integer, number, boolean or a string enum; {type} cannot be read from a header",
  },
  "response-header-type": {
    severity: "error",
    message:
      "response header {name} must be string, integer, number, boolean or a string enum; {type} cannot be read from a header",
  },
  "pagination-response": {
    severity: "error",
    message: "pagination needs a JSON response body to read pages from; {problem}",
  },
  "pagination-key-style": {
    severity: "error",
    message: "{key} does not belong to pagination style {style}, which takes: {allowed}",
  },
  "expandable-type": {
    severity: "error",
    message:
      "field {field} is expandable, so it is an id or the object it names (string | Customer), not {type}",
  },
  "body-optional-alone": {
    severity: "error",
    message: "bodyOptional says the call may leave its body out, and the endpoint has no body",
  },
  "environment-url-invalid": {
    severity: "error",
    message:
      "the address of environment {environment} {problem}: the client refuses it when it is made",
  },
  "server-variable-unknown": {
    severity: "error",
    message:
      "the address of environment {environment} has {{name}}, which is none of its variables: declare it under variables (with a default, or the caller gives it)",
  },
  "server-variable-unused": {
    severity: "error",
    message:
      "variable {name} of environment {environment} is nowhere in its baseUrl: write {{name}} where the value goes, or leave the variable out",
  },
  "server-variable-default": {
    severity: "error",
    message: "the default {value} of variable {name} is none of its values: {values}",
  },
  "server-variable-value": {
    severity: "error",
    message:
      "{value} cannot stand for variable {name}, which is in the address's {place}: it {problem}, and the client refuses it there",
  },
  "access-not-field": {
    severity: "error",
    message:
      "{key} belongs to a field of an object: it leaves the field out of request bodies (readOnly) or answers (writeOnly); {place} is no field",
  },
  "access-both": {
    severity: "error",
    message:
      "field {field} is readOnly and writeOnly: no direction would carry it; keep the one that says who writes it",
  },
  "expand-place": {
    severity: "error",
    message:
      "expand names {name}, which is neither a query parameter nor a body field of {endpoint}",
  },
  "expand-list": {
    severity: "error",
    message: "expand names {name}, a {type}; the fields to expand are a list of paths (string[])",
  },
  "expand-nothing": {
    severity: "error",
    message: "{endpoint} declares expand, but its JSON answer has no field marked expandable: true",
  },
  "pagination-items": { severity: "error", message: "{problem}" },
  "pagination-param": {
    severity: "error",
    message: "{key} names {name}, which is not {place} of {endpoint}{hint}",
  },
  "pagination-body": {
    severity: "error",
    message:
      "pagination in: body moves the walk on through a field of the request body, and {endpoint} {problem}",
  },
  "pagination-field": { severity: "error", message: "{key} {path} {problem}" },
  "errors-field": {
    severity: "error",
    message: "errors.{key} {path} {problem} (in the error body {body})",
  },
  "pagination-link-twice": {
    severity: "error",
    message:
      "header and field both say where the next link is; keep one (header for a Link header, field for a URL in the body)",
  },
  "output-not-owned": {
    severity: "error",
    message: "{file} exists and was not written by the generator; refusing to overwrite it",
  },
  "output-write-failed": {
    severity: "error",
    message: "cannot write {file}: {reason}; the output folder is as it was",
  },
  "output-busy": {
    severity: "error",
    message:
      "{dir} is being written by another apigen run (process {pid}); run again when it has finished",
  },
  "output-interrupted": {
    severity: "error",
    message: "{dir} holds a write that was cut off; run `npm run generate` to finish it",
  },
  "import-file-unreadable": { severity: "error", message: "cannot read {file}: {reason}" },
  "spec-url-failed": {
    severity: "error",
    message: "cannot fetch the OpenAPI document {url}: {reason}",
  },
  "import-syntax": { severity: "error", message: "not valid JSON or YAML: {detail}" },
  "import-not-openapi": {
    severity: "error",
    message: "not an OpenAPI document: it has no `openapi` version field{detail}",
  },
  "import-swagger-unsupported": {
    severity: "error",
    message:
      "a Swagger {version} document; the importer reads Swagger 2.0 and OpenAPI 3.0 and 3.1 (convert it first, e.g. with swagger2openapi)",
  },
  "import-version-unsupported": {
    severity: "error",
    message: "OpenAPI {version} is not supported; the importer reads 3.0.x, 3.1.x and 3.2.x",
  },
  "import-ref-broken": { severity: "error", message: "$ref {ref} points at nothing{hint}" },
  "import-ref-remote": {
    severity: "error",
    message:
      "$ref {ref} is remote, and the importer reads no network: save a copy of what it names and map the URL to it with refMap in the config (or --ref-map URL=PATH)",
  },
  "import-out-spec-not-empty": {
    severity: "error",
    message:
      "{dir} already holds files; import into a new or empty folder, so nothing of yours is overwritten",
  },
  "import-out-spec-not-folder": {
    severity: "error",
    message: "--out-spec {dir} is {what}, not a folder; name a new or empty folder",
  },
  "import-out-spec-unwritable": {
    severity: "error",
    message: "cannot write the spec folder {dir}: {reason}; nothing was written",
  },
  "import-bad-document": { severity: "error", message: "{detail}" },
  "import-overlay-invalid": { severity: "error", message: "overlay {file}: {detail}" },
  "import-overlay-unmatched": {
    severity: "warning",
    message:
      "action {index} of the overlay: target {target} selects nothing, so it changes nothing",
  },
  "import-ref-outside": {
    severity: "error",
    message:
      "$ref {ref} leads outside {root}{how}; the importer reads only files inside it (--ref-root names a wider folder)",
  },
  "import-ref-malformed": {
    severity: "error",
    message: "$ref {ref} is not a valid reference: {detail}",
  },
  "import-ref-map-invalid": {
    severity: "error",
    message: "refMap {prefix} -> {path} cannot map remote $refs: {reason}",
  },
  "import-ref-root-invalid": {
    severity: "error",
    message: "--ref-root {dir} cannot be the folder $refs may reach: {reason}",
  },
  "import-schema-too-deep": {
    severity: "error",
    message:
      "schemas nest more than {max} levels deep here, counting the fields allOf copies in from each $ref; refused",
  },
  "import-too-deep": {
    severity: "error",
    message:
      "nested more than {max} levels deep; an OpenAPI document never needs this much, so it is refused",
  },
  "stale-output": { severity: "error", message: "{file} is {state}; run `npm run generate`" },
} as const satisfies Record<string, { severity: "error" | "warning"; message: string }>;

export type DiagnosticCode = keyof typeof catalogue;
