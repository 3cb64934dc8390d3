/**
 * Every diagnostic the generator can report: code, severity and message template.
 * Templates use `{name}` placeholders filled from the diagnostic's arguments.
 */
export const catalogue = {
  "no-spec-files": { severity: "error", message: "no *.yaml spec files found in {dir}" },
  "spec-dir-missing": { severity: "error", message: "spec folder {dir} does not exist" },
  "yaml-syntax": { severity: "error", message: "YAML syntax: {detail}" },
  "yaml-duplicate-key": { severity: "error", message: "duplicate key {key} in the same mapping" },
  "yaml-not-a-mapping": { severity: "error", message: "a spec file must be a mapping of sections (api, types, endpoints, ...)" },
  "schema-unknown-key": { severity: "error", message: "unknown key {key} here; expected one of: {allowed}" },
  "schema-missing-key": { severity: "error", message: "missing required key {key}" },
  "schema-wrong-type": { severity: "error", message: "expected {expected}, got {actual}" },
  "schema-not-allowed": { severity: "error", message: "{value} is not allowed here; expected one of: {allowed}" },
  "schema-bad-name": { severity: "error", message: "{what} {value} is not {pattern}" },
  "schema-bad-value": { severity: "error", message: "{detail}" },
  "api-missing": { severity: "error", message: "no spec file declares the `api` section (name, title, version)" },
  "duplicate-declaration": { severity: "error", message: "{kind} {name} is declared twice; the first is at {first}" },
  "type-expr-syntax": { severity: "error", message: "cannot read type expression {expr}: {detail}" },
  "unresolved-ref": { severity: "error", message: "unknown type {name}{hint}" },
  "type-conflict": { severity: "error", message: "{detail}" },
  "extends-not-object": { severity: "error", message: "{name} can only extend an object type, and {base} is not one" },
  "omit-unknown-field": { severity: "error", message: "omit names {field}, which {base} does not have" },
  "infinite-type": { severity: "error", message: "type {name} can only be infinite: {cycle} (make a field optional or nullable to end the chain)" },
  "alias-cycle": { severity: "error", message: "type {name} is an alias of itself: {cycle} (TypeScript cannot declare it; put an object or array in the cycle)" },
  "path-param-undeclared": { severity: "error", message: "path parameter {{name}} is not declared in params" },
  "path-param-unused": { severity: "error", message: "parameter {name} is declared `in: path` but {path} has no {{name}}" },
  "path-template-syntax": { severity: "error", message: "path {path} has a malformed parameter placeholder" },
  "unknown-credential": { severity: "error", message: "unknown credential {name}{hint}" },
  "unknown-endpoint": { severity: "error", message: "unknown endpoint {name}{hint}" },
  "unknown-version": { severity: "error", message: "path {path} matches no version prefix ({prefixes})" },
  "unknown-version-name": { severity: "error", message: "unknown version {name}; declared: {declared}" },
  "unknown-error-code": { severity: "error", message: "error code {code} is not in errors.codes" },
  "duplicate-endpoint-route": { severity: "error", message: "{method} {path} is also endpoint {other}" },
  "duplicate-callback-route": { severity: "error", message: "{method} {path} is also callback {other}" },
  "credential-header-missing": { severity: "error", message: "credential {name} is sent `in: {placement}` but names no header" },
  "generated-name-conflict": { severity: "error", message: "type {name} clashes with the interface generated for the parameters of {owner}; rename the type" },
  "enum-mixed-types": { severity: "error", message: "enum values must all be of one type; found {types}" },
  "output-not-owned": { severity: "error", message: "{file} exists and was not written by the generator; refusing to overwrite it" },
  "stale-output": { severity: "error", message: "{file} is {state}; run `npm run generate`" },
} as const satisfies Record<string, { severity: "error" | "warning"; message: string }>;

export type DiagnosticCode = keyof typeof catalogue;
