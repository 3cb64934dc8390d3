/**
 * Broken specs: every problem is reported, with the exact code, message, file, line and
 * column, and the CLI prints them with a code frame, exits 1 and writes nothing.
 *
 * Each fixture is a tiny folder under test/fixtures/broken/. The expected lists below were
 * worked out by reading the fixtures (lines and columns are 1-based; the column is that of
 * the key or value the problem concerns), not copied from the generator's output.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../generator/diagnostics/format.ts";
import { diagnosticsOf, repoRoot, runCli, tempDir } from "./helpers.ts";

const brokenDir = join(repoRoot, "test/fixtures/broken");

interface BrokenCase {
  /** Folder under test/fixtures/broken/. */
  name: string;
  /** What is wrong with it. */
  defect: string;
  /** Every diagnostic, in file, line and column order. */
  expected: string[];
}

const cases: BrokenCase[] = [
  // --- YAML ---------------------------------------------------------------------------
  {
    name: "yaml-unclosed-flow",
    defect: "a flow mapping `{ fields: { amount: integer }` is never closed",
    expected: [
      "test/fixtures/broken/yaml-unclosed-flow/api.yaml:8:3 - error yaml-syntax: YAML syntax: Flow map in block collection must be sufficiently indented and end with a }",
    ],
  },
  {
    name: "yaml-bad-indent",
    defect: "`currency` is indented one column less than its sibling `amount`",
    expected: [
      // The key that is out of line starts at column 6 (not at the line's first space).
      "test/fixtures/broken/yaml-bad-indent/api.yaml:10:6 - error yaml-syntax: YAML syntax: All mapping items must start at the same column",
    ],
  },
  {
    name: "yaml-dedented-key",
    defect:
      "a field two spaces left of its siblings: the parser names the line after it, then each line after that; said once, at the line to move",
    expected: [
      "test/fixtures/broken/yaml-dedented-key/api.yaml:13:5 - error yaml-syntax: YAML syntax: this line is indented 4 spaces, the lines before and after it 6: line it up with them",
    ],
  },
  {
    name: "fields-not-indented",
    defect:
      "a type's field written beside `fields:`, not under it: the empty value says nothing is indented under it, and the field is an unknown key of the type",
    expected: [
      "test/fixtures/broken/fields-not-indented/api.yaml:10:12 - error schema-wrong-type: expected a mapping, got null (an empty value): nothing below fields: is indented under it",
      "test/fixtures/broken/fields-not-indented/api.yaml:11:5 - error schema-unknown-key: unknown key end_time here (a field of the type goes under its fields:); expected one of: type, description, undocumented, required, nullable, deprecated, default, fields, open, extends, omit, items, values, enum, const, format, pattern, prefix, minLength, maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems, uniqueItems, minProperties, maxProperties, unit, example, union, discriminator, expandable, readOnly, writeOnly, typeParams",
    ],
  },
  {
    name: "type-keys-elsewhere",
    defect:
      "an unknown key of a webhook event's answer (a type): the keys allowed are a type's, without a parameter's (in, style, slashes)",
    expected: [
      "test/fixtures/broken/type-keys-elsewhere/api.yaml:16:18 - error schema-unknown-key: unknown key mediaType here; expected one of: type, description, undocumented, required, nullable, deprecated, default, fields, open, extends, omit, items, values, enum, const, format, pattern, prefix, minLength, maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems, uniqueItems, minProperties, maxProperties, unit, example, union, discriminator, expandable, readOnly, writeOnly, typeParams",
    ],
  },
  {
    name: "pagination-unknown-type",
    defect:
      "pagination over a body that names a type the spec does not have: the unknown type is said, and no field of it is said to be missing",
    expected: [
      "test/fixtures/broken/pagination-unknown-type/api.yaml:10:3 - error type-name-reserved: type Page has the name of one the generated package exports from its runtime; rename it",
      "test/fixtures/broken/pagination-unknown-type/api.yaml:19:15 - error unresolved-ref: unknown type Paging",
    ],
  },
  {
    name: "response-empty-status",
    defect:
      "emptyStatus that is the success's own status, and one beside no body (which is empty already)",
    expected: [
      "test/fixtures/broken/response-empty-status/api.yaml:17:58 - error response-empty-status: emptyStatus 200 is the status of the body (200); name the other one",
      "test/fixtures/broken/response-empty-status/api.yaml:21:43 - error response-empty-status: emptyStatus 204 is beside no body: a response without one is empty already",
    ],
  },
  {
    name: "yaml-colon-in-value",
    defect:
      "an unquoted value holding `: ` and braces: the parser reads a key in it and reports every token after it; said once, at the value, with the fix",
    expected: [
      `test/fixtures/broken/yaml-colon-in-value/api.yaml:5:16 - error yaml-syntax: YAML syntax: this value is not quoted and holds ": " (after "Every error body is \`{ error"), which YAML reads as a key: quote the whole value ('...', each ' in it doubled), or write it as a block scalar (>- after the key, the text on the lines below, indented)`,
    ],
  },
  {
    name: "yaml-brackets-in-flow",
    defect:
      "a list shorthand unquoted inside `{ }`: the parser reads a flow sequence and reports every token after it; said once, at the value, with the fix",
    expected: [
      'test/fixtures/broken/yaml-brackets-in-flow/api.yaml:9:30 - error yaml-syntax: YAML syntax: inside `{ }` brackets start a list, so string[] is read as string followed by one; quote it: "string[]"',
    ],
  },
  {
    name: "yaml-unclosed-quote",
    defect:
      "a description in double quotes never closed: the parser reads on to the end of the file and reports a missing quote there",
    expected: [
      // said at the first line after the quote's that is not indented past its key
      "test/fixtures/broken/yaml-unclosed-quote/api.yaml:9:5 - error yaml-syntax: YAML syntax: the quoted value begun on line 8 is not closed before this line, which is not indented past its key: close the quote, or indent the value's lines past the key (or write it as a block scalar, |)",
    ],
  },
  {
    name: "pagination-unreadable-type",
    defect:
      "a paged list's hasMore field typed `bool`: one error at the type, none from the pagination naming the field (the Notion trial's cascade)",
    expected: [
      'test/fixtures/broken/pagination-unreadable-type/api.yaml:22:25 - error type-expr-syntax: cannot read type expression "bool": bool is not a type (did you mean boolean?); named types are PascalCase, built-ins are string, integer, number, boolean, binary, unknown, object, unspecified, map<T>, T[]',
    ],
  },
  {
    name: "delivery-id-field",
    defect:
      "a delivery id read from a body field no payload has (event.uuid where PagerDuty's envelopes carry event.id): generate refuses what would refuse every delivery, once for the credential, naming each event",
    expected: [
      "test/fixtures/broken/delivery-id-field/api.yaml:9:3 - error delivery-id-field: credential signingKey reads the delivery id of webhook event incident.triggered and webhook event incident.resolved from the body field event.uuid, which is no field of Triggered and Resolved: the router reads the body there (a path of fields joined by dots reaches a nested one), so every delivery would be refused; name a field it has (or read the id from a header)",
    ],
  },
  {
    name: "body-optional-alone",
    defect: "bodyOptional on an endpoint without a body",
    expected: [
      "test/fixtures/broken/body-optional-alone/api.yaml:10:5 - error body-optional-alone: bodyOptional says the call may leave its body out, and the endpoint has no body",
    ],
  },
  {
    name: "server-variables",
    defect:
      "an address naming a variable it does not declare, a variable it does not use, a default none of its values, values the client would refuse in the host (a fragment) and the path (a .. segment), and an address with a query, which the client refuses",
    expected: [
      "test/fixtures/broken/server-variables/api.yaml:8:14 - error server-variable-unknown: the address of environment production has {tenant}, which is none of its variables: declare it under variables (with a default, or the caller gives it)",
      'test/fixtures/broken/server-variables/api.yaml:10:27 - error server-variable-default: the default "v3" of variable version is none of its values: v1, v2',
      "test/fixtures/broken/server-variables/api.yaml:11:7 - error server-variable-unused: variable region of environment production is nowhere in its baseUrl: write {region} where the value goes, or leave the variable out",
      `test/fixtures/broken/server-variables/api.yaml:15:26 - error server-variable-value: "acme.example#" cannot stand for variable tenant, which is in the address's host: it is not a host name's letters, digits, dots and hyphens, and the client refuses it there`,
      `test/fixtures/broken/server-variables/api.yaml:16:26 - error server-variable-value: "../admin" cannot stand for variable path, which is in the address's path: it has a .. segment, and the client refuses it there`,
      "test/fixtures/broken/server-variables/api.yaml:18:14 - error environment-url-invalid: the address of environment proxy has a query or fragment, which endpoint paths cannot follow: the client refuses it when it is made",
    ],
  },
  {
    name: "field-access",
    defect:
      "readOnly and writeOnly where no field is (a named type, an array's items, a body), and a field marked both: each at its key",
    expected: [
      "test/fixtures/broken/field-access/api.yaml:8:5 - error access-not-field: readOnly belongs to a field of an object: it leaves the field out of request bodies (readOnly) or answers (writeOnly); types.Account is no field",
      "test/fixtures/broken/field-access/api.yaml:10:54 - error access-both: field id is readOnly and writeOnly: no direction would carry it; keep the one that says who writes it",
      "test/fixtures/broken/field-access/api.yaml:12:32 - error access-not-field: writeOnly belongs to a field of an object: it leaves the field out of request bodies (readOnly) or answers (writeOnly); types.Account.tags.items is no field",
      "test/fixtures/broken/field-access/api.yaml:18:28 - error access-not-field: readOnly belongs to a field of an object: it leaves the field out of request bodies (readOnly) or answers (writeOnly); endpoints.accounts.create.body is no field",
    ],
  },
  {
    name: "union-tag-boolean",
    defect:
      "a union told apart by a boolean field (Slack's `ok`): tags are strings, so the message says so rather than that true must admit true",
    expected: [
      "test/fixtures/broken/union-tag-boolean/api.yaml:11:15 - error union-tag-not-string: types.UsersInfoResponse: the tag field UsersInfoOk.ok is the boolean true, and a union's tags are strings: tell its variants apart by a string field, or write the union without a discriminator (a plain union)",
      "test/fixtures/broken/union-tag-boolean/api.yaml:12:16 - error union-tag-not-string: types.UsersInfoResponse: the tag field SlackError.ok is the boolean false, and a union's tags are strings: tell its variants apart by a string field, or write the union without a discriminator (a plain union)",
    ],
  },
  {
    name: "errors-field",
    defect:
      "errors.codeField naming no field of the error body, and errors.messageField a boolean one",
    expected: [
      "test/fixtures/broken/errors-field/api.yaml:9:14 - error errors-field: errors.codeField error.kind is not a field of error (in the error body ErrorResponse)",
      "test/fixtures/broken/errors-field/api.yaml:10:17 - error errors-field: errors.messageField error.retryable is no string (or list of strings) field (in the error body ErrorResponse)",
    ],
  },
  {
    name: "errors-field-entry",
    defect:
      "errors.codeField reading the first entry ([0]) of a field that is an object, and errors.messageField a field of an entry that is a text",
    expected: [
      "test/fixtures/broken/errors-field-entry/api.yaml:9:14 - error errors-field: errors.codeField error[0].type reads [0] of error, which is an object, not a list (in the error body ErrorResponse)",
      "test/fixtures/broken/errors-field-entry/api.yaml:10:17 - error errors-field: errors.messageField notes[0].text is not a field of an entry of notes (in the error body ErrorResponse)",
    ],
  },
  {
    name: "type-typos",
    defect:
      "a key misspelled (`requried`), and a field dedented out of its type's fields: the nearest key, and where a field goes; a type's keys listed without a parameter's",
    expected: [
      "test/fixtures/broken/type-typos/api.yaml:11:30 - error schema-unknown-key: unknown key requried here (did you mean required?); expected one of: type, description, undocumented, required, nullable, deprecated, default, fields, open, extends, omit, items, values, enum, const, format, pattern, prefix, minLength, maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems, uniqueItems, minProperties, maxProperties, unit, example, union, discriminator, expandable, readOnly, writeOnly, typeParams",
      "test/fixtures/broken/type-typos/api.yaml:12:5 - error schema-unknown-key: unknown key color here (a field of the type goes under its fields:); expected one of: type, description, undocumented, required, nullable, deprecated, default, fields, open, extends, omit, items, values, enum, const, format, pattern, prefix, minLength, maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems, uniqueItems, minProperties, maxProperties, unit, example, union, discriminator, expandable, readOnly, writeOnly, typeParams",
    ],
  },
  {
    name: "type-names",
    defect:
      "types as other languages name them (`String`, `bool`) and a default of the wrong kind: the built-in meant, and the type the default is not of",
    expected: [
      "test/fixtures/broken/type-names/api.yaml:10:19 - error unresolved-ref: unknown type String; did you mean string?",
      'test/fixtures/broken/type-names/api.yaml:11:19 - error type-expr-syntax: cannot read type expression "bool": bool is not a type (did you mean boolean?); named types are PascalCase, built-ins are string, integer, number, boolean, binary, unknown, object, unspecified, map<T>, T[]',
      'test/fixtures/broken/type-names/api.yaml:12:39 - error type-conflict: default "50" is not a value of the type (integer)',
    ],
  },
  {
    name: "duplicate-key",
    defect: "`amount` appears twice in the same `fields` mapping",
    expected: [
      "test/fixtures/broken/duplicate-key/api.yaml:11:7 - error yaml-duplicate-key: duplicate key amount in the same mapping",
    ],
  },
  {
    name: "duplicate-key-flow",
    defect: "`amount` appears twice in one flow mapping",
    expected: [
      "test/fixtures/broken/duplicate-key-flow/api.yaml:7:39 - error yaml-duplicate-key: duplicate key amount in the same mapping",
    ],
  },
  {
    name: "yaml-alias-unresolved",
    defect: "`*nowhere` names an anchor that is never set",
    expected: [
      "test/fixtures/broken/yaml-alias-unresolved/api.yaml:8:18 - error yaml-alias-unresolved: alias *nowhere has no anchor &nowhere before it",
    ],
  },
  {
    name: "yaml-alias-cycle",
    defect: "`Money: &money` holds `*money`, a value that contains itself",
    expected: [
      "test/fixtures/broken/yaml-alias-cycle/api.yaml:10:15 - error yaml-alias-cycle: alias *money is inside the node its anchor names, so its value would be infinite",
    ],
  },
  {
    name: "yaml-alias-bomb",
    defect: "eight levels of nine aliases each (43,046,721 copies): refused, never expanded",
    expected: [
      "test/fixtures/broken/yaml-alias-bomb/api.yaml:7:10 - error yaml-alias-bomb: aliases add more than 1000000 nodes to a file of 34 nodes; refused as a YAML alias bomb (repeat the text, or use fewer aliases)",
    ],
  },
  {
    name: "yaml-too-deep",
    defect: "1,000 nested `[` (the YAML parser itself may run out of stack on them)",
    expected: [
      // the first node more than 66 levels deep (fast-yaml.ts tooDeepAt): the root mapping
      // and the mappings of types and Money are three levels, so it is the 64th `[` (column
      // 15 + 63), the same in a fresh process and after other files
      "test/fixtures/broken/yaml-too-deep/api.yaml:9:78 - error yaml-too-deep: nested more than 64 levels deep; a spec never needs this much, so it is refused",
    ],
  },
  {
    name: "duplicate-code-key",
    defect:
      'error code 1005 written once as `1005` and once as `"1005"`: one JavaScript key, so one would be dropped',
    expected: [
      "test/fixtures/broken/duplicate-code-key/api.yaml:9:5 - error yaml-duplicate-key: duplicate key 1005 in the same mapping",
    ],
  },
  {
    name: "not-utf8",
    defect: "a Latin-1 pound sign (byte 0xA3) in a description",
    expected: [
      "test/fixtures/broken/not-utf8/api.yaml:8:28 - error spec-not-utf8: byte 0xA3 is not UTF-8 text; spec files must be saved as UTF-8",
    ],
  },
  {
    name: "control-character",
    defect: "a raw BEL (U+0007) in a description",
    expected: [
      "test/fixtures/broken/control-character/api.yaml:8:24 - error yaml-control-character: control character U+0007 is not allowed in a spec file (only tab and line breaks are)",
    ],
  },
  {
    name: "control-character-escaped",
    defect: "BEL written as the escape `\\x07` in a double-quoted description",
    expected: [
      "test/fixtures/broken/control-character-escaped/api.yaml:8:18 - error yaml-control-character: control character U+0007 is not allowed in a spec file (only tab and line breaks are)",
    ],
  },
  {
    name: "lone-surrogate",
    defect: "half a surrogate pair written as the escape `\\uD800` in the API's title (issue 30)",
    expected: [
      "test/fixtures/broken/lone-surrogate/api.yaml:3:10 - error yaml-lone-surrogate: escape of U+D800 is half of a UTF-16 surrogate pair, which is no character; write the character itself (or both halves of its pair)",
    ],
  },
  {
    name: "pattern-invalid",
    defect:
      "a pattern with an unclosed group (the validators would throw SyntaxError at their first call), one in Java's dialect (every id refused), and one with Python's end anchor (every username refused)",
    expected: [
      'test/fixtures/broken/pattern-invalid/api.yaml:9:14 - error pattern-invalid: pattern "^[A-Z]{4}-(\\\\d+$" is not a JavaScript regular expression: Unterminated group',
      'test/fixtures/broken/pattern-invalid/api.yaml:14:14 - error pattern-invalid: pattern "^\\\\p{XDigit}{8}$" is not a JavaScript regular expression: \\p{XDigit} is a character class of Java\'s dialect, which JavaScript reads as the text p{XDigit}',
      'test/fixtures/broken/pattern-invalid/api.yaml:19:14 - error pattern-invalid: pattern "^[\\\\w.@+-]+\\\\z" is not a JavaScript regular expression: \\z is an anchor of Python, Ruby and PCRE patterns, which JavaScript reads as the letter z',
    ],
  },
  {
    name: "pattern-length-conflict",
    defect:
      "patterns no string of the type's lengths matches (PeerTube's `^[a-z0-9]$` beside minLength 32): every value would be refused; a pattern with `+` beside the same lengths is fine",
    expected: [
      "test/fixtures/broken/pattern-length-conflict/api.yaml:11:14 - error pattern-length-conflict: no string fits: pattern ^[a-z0-9]$ matches strings of exactly 1 character, and minLength is 32; correct the pattern or the lengths",
      "test/fixtures/broken/pattern-length-conflict/api.yaml:15:14 - error pattern-length-conflict: no string fits: pattern [A-Z]{4} matches strings of at least 4 characters, and maxLength is 3; correct the pattern or the lengths",
    ],
  },
  {
    name: "range-conflict",
    defect:
      "a minimum past its maximum (GetStream's latitude: -90 as an unsigned 64-bit integer beside maximum 90) a minLength past its maxLength, an exclusive minimum at the maximum, and a minItems past its maxItems: no value fits, every one would be refused; equal bounds are fine",
    expected: [
      "test/fixtures/broken/range-conflict/api.yaml:11:18 - error range-conflict: no value fits: minimum 18446744073709552000 is more than maximum 90; correct one of them",
      "test/fixtures/broken/range-conflict/api.yaml:16:16 - error range-conflict: no value fits: minLength 8 is more than maxLength 4; correct one of them",
      "test/fixtures/broken/range-conflict/api.yaml:24:23 - error range-conflict: no value fits: exclusiveMinimum 1 is not less than maximum 1; correct one of them",
      "test/fixtures/broken/range-conflict/api.yaml:28:15 - error range-conflict: no value fits: minItems 3 is more than maxItems 2; correct one of them",
    ],
  },
  {
    name: "not-a-mapping",
    defect: "the file is a list of sections, not a mapping",
    expected: [
      "test/fixtures/broken/not-a-mapping/api.yaml:1:1 - error yaml-not-a-mapping: a spec file must be a mapping of sections (api, types, endpoints, ...)",
    ],
  },
  {
    name: "scalar-file",
    defect: "the file is one plain string",
    expected: [
      "test/fixtures/broken/scalar-file/api.yaml:1:1 - error yaml-not-a-mapping: a spec file must be a mapping of sections (api, types, endpoints, ...)",
    ],
  },
  {
    name: "no-spec-files",
    defect: "the folder holds no *.yaml file",
    expected: [
      "error no-spec-files: no *.yaml spec files found in test/fixtures/broken/no-spec-files",
    ],
  },

  // --- Schema -------------------------------------------------------------------------
  {
    name: "unknown-key",
    defect: "`feilds` instead of `fields`",
    expected: [
      "test/fixtures/broken/unknown-key/api.yaml:8:5 - error schema-unknown-key: unknown key feilds here (did you mean fields?); expected one of: type, description, undocumented, required, nullable, deprecated, default, fields, open, extends, omit, items, values, enum, const, format, pattern, prefix, minLength, maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems, uniqueItems, minProperties, maxProperties, unit, example, union, discriminator, expandable, readOnly, writeOnly, typeParams",
    ],
  },
  {
    name: "missing-method",
    defect: "an endpoint without `method`",
    expected: [
      "test/fixtures/broken/missing-method/api.yaml:7:3 - error schema-missing-key: missing required key method",
    ],
  },
  {
    name: "wrong-type-required",
    defect: 'required: "yes" (a string, not a boolean)',
    expected: [
      'test/fixtures/broken/wrong-type-required/api.yaml:9:42 - error schema-wrong-type: expected a boolean, got string "yes"',
    ],
  },
  {
    name: "wrong-type-fields-list",
    defect: "`fields` given as a list of names",
    expected: [
      "test/fixtures/broken/wrong-type-fields-list/api.yaml:9:7 - error schema-wrong-type: expected a mapping, got a list",
    ],
  },
  {
    name: "empty-field",
    defect: "a field with no type at all (`amount:`)",
    expected: [
      "test/fixtures/broken/empty-field/api.yaml:9:14 - error schema-wrong-type: expected a string or a mapping, got null (an empty value)",
    ],
  },
  {
    name: "undocumented-wrong",
    defect: "an empty `undocumented` list, and an `undocumented` that is a number",
    expected: [
      "test/fixtures/broken/undocumented-wrong/api.yaml:8:19 - error schema-bad-value: undocumented must NOT have fewer than 1 items",
      "test/fixtures/broken/undocumented-wrong/api.yaml:10:46 - error schema-wrong-type: expected a string or a list, got number 5",
    ],
  },
  {
    name: "bad-method",
    defect: "method: FETCH",
    expected: [
      'test/fixtures/broken/bad-method/api.yaml:8:13 - error schema-not-allowed: "FETCH" is not allowed here; expected one of: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, QUERY',
    ],
  },
  {
    name: "bad-type-name",
    defect: "a type named `money` (not PascalCase)",
    expected: [
      "test/fixtures/broken/bad-type-name/api.yaml:7:3 - error schema-bad-name: name money is not PascalCase (e.g. CartItem)",
    ],
  },
  {
    name: "bad-endpoint-id",
    defect: "an endpoint id without a dot",
    expected: [
      "test/fixtures/broken/bad-endpoint-id/api.yaml:7:3 - error schema-bad-name: name listOrders is not `group.name` in camelCase (e.g. transactions.get)",
    ],
  },

  // --- Type expressions and references --------------------------------------------------
  {
    name: "type-expr-unclosed-map",
    defect: "map<string without its >",
    expected: [
      'test/fixtures/broken/type-expr-unclosed-map/api.yaml:9:30 - error type-expr-syntax: cannot read type expression "map<string": expected > to close map<',
    ],
  },
  {
    name: "generic-arity",
    defect:
      "List<Customer, Order> and a bare List for a List<T>, and Customer<string> for a type with no typeParams",
    expected: [
      "test/fixtures/broken/generic-arity/api.yaml:16:18 - error generic-arity: List takes 1 type argument (List<T>), not 2",
      "test/fixtures/broken/generic-arity/api.yaml:17:19 - error generic-arity: List takes 1 type argument (List<T>), not 0",
      "test/fixtures/broken/generic-arity/api.yaml:18:11 - error generic-arity: Customer takes no type arguments (it has no typeParams), not 1",
    ],
  },
  {
    name: "generic-unknown-param",
    defect: "U[] in the body of List<T>",
    expected: [
      "test/fixtures/broken/generic-unknown-param/api.yaml:10:21 - error generic-unknown-param: U is neither a parameter of List (T) nor a type; did you mean T?",
    ],
  },
  {
    name: "generic-param-not-concrete",
    defect:
      "a type parameter as the base of extends, as a tagged union's variant, and given type arguments",
    expected: [
      "test/fixtures/broken/generic-param-not-concrete/api.yaml:12:14 - error generic-param-not-concrete: type parameter T of Wrapped cannot be the base of `extends`, which is a named object type: a type parameter stands for any type",
      "test/fixtures/broken/generic-param-not-concrete/api.yaml:20:14 - error generic-param-not-concrete: type parameter T of Either cannot be a variant of a tagged union, which is a named object type: a type parameter stands for any type",
      "test/fixtures/broken/generic-param-not-concrete/api.yaml:24:14 - error generic-param-not-concrete: type parameter T of Applied cannot be a generic type given type arguments: a type parameter stands for any type",
    ],
  },
  {
    name: "generic-param-shadows",
    defect: "typeParams: [Customer] beside the type Customer",
    expected: [
      "test/fixtures/broken/generic-param-shadows/api.yaml:11:18 - error generic-param-shadows: type parameter Customer of Box has the name of a type, which it would hide in the body; rename the parameter",
    ],
  },
  {
    name: "generic-expansion",
    defect: "Nest<T> holds Nest<T[]>: every use makes a bigger one",
    expected: [
      "test/fixtures/broken/generic-expansion/api.yaml:11:15 - error generic-expansion: Nest<string[][][][][][][][][][][][][][][][]> makes uses of generic types without end (more than 16 nested, or 10000 in all): a generic type's body uses it with a bigger argument",
    ],
  },
  {
    name: "generic-syntax",
    defect: "List<Customer without its >",
    expected: [
      'test/fixtures/broken/generic-syntax/api.yaml:13:31 - error type-expr-syntax: cannot read type expression "List<Customer": expected , or > in the type arguments of List',
    ],
  },
  {
    name: "expand-misused",
    defect:
      "an expandable field that is no id-or-object union, an expand naming nothing, a string, and an answer with nothing to expand",
    expected: [
      "test/fixtures/broken/expand-misused/api.yaml:17:7 - error expandable-type: field amount is expandable, so it is an id or the object it names (string | Customer), not integer",
      "test/fixtures/broken/expand-misused/api.yaml:29:13 - error expand-place: expand names expandd, which is neither a query parameter nor a body field of payments.get",
      "test/fixtures/broken/expand-misused/api.yaml:36:13 - error expand-list: expand names expand, a string; the fields to expand are a list of paths (string[])",
      "test/fixtures/broken/expand-misused/api.yaml:43:13 - error expand-nothing: plain.get declares expand, but its JSON answer has no field marked expandable: true",
    ],
  },
  {
    name: "generic-misplaced",
    defect: "typeParams on a field",
    expected: [
      "test/fixtures/broken/generic-misplaced/api.yaml:10:21 - error type-conflict: only a named type takes typeParams; a field, parameter or body uses a generic type with its arguments, as List<Customer>",
      "test/fixtures/broken/generic-misplaced/api.yaml:11:15 - error unresolved-ref: unknown type T",
    ],
  },
  {
    name: "type-expr-union",
    defect:
      "map<string | number>: a union inside map<> (the shorthand takes unions at the top only)",
    expected: [
      'test/fixtures/broken/type-expr-union/api.yaml:9:25 - error type-expr-syntax: cannot read type expression "map<string | number>": a union of map values is written in full: values: { union: [A, B] }',
    ],
  },
  {
    name: "union-extends",
    defect: "extends: Base | Other (a union where one named type is expected)",
    expected: [
      'test/fixtures/broken/union-extends/api.yaml:14:14 - error union-not-allowed: "Base | Other" is a union, but extends takes one named type',
    ],
  },
  {
    name: "union-variant-not-object",
    defect: "a tagged union's variant Code is a string alias, not an object type",
    expected: [
      "test/fixtures/broken/union-variant-not-object/api.yaml:15:13 - error union-variant-not-object: types.Method: the variant of tag code must be a named object type (not nullable), and Code is not one",
    ],
  },
  {
    name: "union-tag-conflict",
    defect: "the variant of tag sepa_debit declares type: { const: card }",
    expected: [
      'test/fixtures/broken/union-tag-conflict/api.yaml:17:19 - error union-tag-conflict: types.Method: tag sepa_debit names Sepa.type, which is const "card"; it must admit sepa_debit',
    ],
  },
  {
    name: "union-variant-twice",
    defect: "Card is the variant of tag card in one union and of tag old_card in another",
    expected: [
      "test/fixtures/broken/union-variant-twice/api.yaml:17:17 - error union-variant-twice: Card is already the variant of tag card in types.Method; a type carries one value of its tag field type, so give tag old_card a type of its own (one that extends Card)",
    ],
  },
  {
    name: "union-unknown-variant",
    defect: "a tagged union names a variant type that does not exist",
    expected: [
      "test/fixtures/broken/union-unknown-variant/api.yaml:14:19 - error unresolved-ref: unknown type SepaDebit",
    ],
  },
  {
    name: "type-expr-lowercase",
    defect: "strng: a lower-case word that is no built-in",
    expected: [
      'test/fixtures/broken/type-expr-lowercase/api.yaml:9:17 - error type-expr-syntax: cannot read type expression "strng": strng is not a type (did you mean string?); named types are PascalCase, built-ins are string, integer, number, boolean, binary, unknown, object, unspecified, map<T>, T[]',
    ],
  },
  {
    name: "body-content-types",
    defect:
      "a Content-Type header against contentType, bodies that do not fit their media type, a 204 with a body, an object response header, binary in JSON, a form or multipart body without fields",
    expected: [
      "test/fixtures/broken/body-content-types/api.yaml:9:13 - error body-content-type: binary cannot travel in the application/json response of endpoint files.list; only as a multipart file part, an application/octet-stream body or a binary response body",
      "test/fixtures/broken/body-content-types/api.yaml:10:13 - error body-content-type: binary cannot travel in the application/x-www-form-urlencoded body of endpoint files.rawForm; only as a multipart file part, an application/octet-stream body or a binary response body",
      "test/fixtures/broken/body-content-types/api.yaml:18:18 - error content-type-conflict: header Content-Type: application/json disagrees with contentType multipart/form-data; list one of them, or make them agree",
      "test/fixtures/broken/body-content-types/api.yaml:24:11 - error body-content-type: a body sent as application/octet-stream must be of type binary",
      "test/fixtures/broken/body-content-types/api.yaml:29:11 - error body-content-type: a body sent as application/x-www-form-urlencoded cannot be binary; use multipart/form-data or application/octet-stream",
      "test/fixtures/broken/body-content-types/api.yaml:33:36 - error body-content-type: a 204 response has no body",
      "test/fixtures/broken/body-content-types/api.yaml:41:17 - error response-header-type: response header X-Page must be string, integer, number, boolean or a string enum; Upload cannot be read from a header",
      "test/fixtures/broken/body-content-types/api.yaml:45:44 - error body-content-type: binary cannot travel in the application/json body of endpoint files.meta; only as a multipart file part, an application/octet-stream body or a binary response body",
      // a named alias of binary is binary: no form field can carry it
      "test/fixtures/broken/body-content-types/api.yaml:50:11 - error body-content-type: a body sent as application/x-www-form-urlencoded cannot be binary; use multipart/form-data or application/octet-stream",
      // a form is fields and multipart is parts: no scalar or array body can be sent as either
      "test/fixtures/broken/body-content-types/api.yaml:55:11 - error body-content-type: a body sent as multipart/form-data is its fields: an object, not a string",
      "test/fixtures/broken/body-content-types/api.yaml:60:11 - error body-content-type: a body sent as application/x-www-form-urlencoded is its fields: an object, not an array",
    ],
  },
  {
    name: "streams",
    defect:
      "SSE keys on JSON lines and JSON, body and events together, a stream with neither, open without events, a streamResponse that is no stream or beside one, flags that are no boolean body field, binary items, a type named like a generated event union (a warning: the union takes a number)",
    expected: [
      "test/fixtures/broken/streams/api.yaml:11:3 - warning generated-name-taken: type TicksWatchEvent has the name of the events union generated for endpoint ticks.watch, which is called TicksWatchEvent2 instead; rename the type to keep TicksWatchEvent for it",
      "test/fixtures/broken/streams/api.yaml:22:15 - error stream-key-misplaced: `events` belongs to a text/event-stream response; this response is application/x-ndjson",
      "test/fixtures/broken/streams/api.yaml:26:42 - error stream-key-misplaced: `terminator` belongs to a text/event-stream response; this response is application/json",
      "test/fixtures/broken/streams/api.yaml:33:7 - error stream-body-and-events: a stream gives `body` (the type of every event's data) or `events` (the type of each named event's data), not both",
      "test/fixtures/broken/streams/api.yaml:37:5 - error stream-payload-missing: a text/event-stream response needs `body` (the type of every event's data) or `events` (a type per event name)",
      "test/fixtures/broken/streams/api.yaml:42:68 - error stream-key-misplaced: `open` belongs to named events; this response is a stream without `events`",
      "test/fixtures/broken/streams/api.yaml:48:50 - error stream-response-kind: `streamResponse` is the stream a flag asks for: its contentType must be text/event-stream, application/jsonl or application/x-ndjson, not application/json",
      "test/fixtures/broken/streams/api.yaml:54:5 - error stream-response-twice: `response` of endpoint twice.flag is already a stream; `streamResponse` gives the stream a flag switches to, beside a response that is not one",
      "test/fixtures/broken/streams/api.yaml:60:29 - error stream-flag: stream flag streaming is not a field of the body (its fields: stream, mode)",
      "test/fixtures/broken/streams/api.yaml:66:29 - error stream-flag: stream flag mode must be a boolean field of the body",
      "test/fixtures/broken/streams/api.yaml:71:29 - error stream-flag: stream flag stream needs a request body with it as a boolean field; the endpoint has no body",
      "test/fixtures/broken/streams/api.yaml:75:55 - error body-content-type: binary cannot travel in the application/jsonl response of endpoint bytes.stream; only as a multipart file part, an application/octet-stream body or a binary response body",
    ],
  },
  {
    name: "not-processed",
    defect:
      "notProcessed on a range, on a success status and beside retry: false (a plain one on 503 is fine)",
    expected: [
      "test/fixtures/broken/not-processed/api.yaml:5:36 - error status-not-processed: notProcessed on status 5xx: a range cannot promise it for every status it stands for; mark each status the server promises it for",
      "test/fixtures/broken/not-processed/api.yaml:6:32 - error status-not-processed: notProcessed on status 202: the client retries only error statuses (400 and above)",
      "test/fixtures/broken/not-processed/api.yaml:7:50 - error status-not-processed: notProcessed on status 429: it contradicts retry: false (a status whose requests were not processed is retried for every method)",
    ],
  },
  {
    name: "stream-error-item",
    defect:
      "stream error items without field or event, with both, an event also listed, an event in JSON lines, on a JSON response, a field its body lacks, a status not an integer or without a body (the last one is fine)",
    expected: [
      "test/fixtures/broken/stream-error-item/api.yaml:12:62 - error stream-error-item: the stream's `error` needs `field` (a top-level key of an item's JSON, such as error) or `event` (a server-sent event name)",
      "test/fixtures/broken/stream-error-item/api.yaml:16:85 - error stream-error-item: the stream's `error` takes `field` or `event`, not both",
      'test/fixtures/broken/stream-error-item/api.yaml:23:16 - error stream-error-item: the stream\'s `error` event "error" is listed in `events` too: an event is an item or the error, not both; take it out of `events`',
      "test/fixtures/broken/stream-error-item/api.yaml:27:78 - error stream-key-misplaced: `event` belongs to a text/event-stream response; this response is application/jsonl",
      "test/fixtures/broken/stream-error-item/api.yaml:31:37 - error stream-key-misplaced: `error` belongs to a stream (text/event-stream, application/jsonl or application/x-ndjson); this response is application/json",
      "test/fixtures/broken/stream-error-item/api.yaml:35:62 - error stream-error-item: the stream's `error` field failure is not a field of its body (its fields: error)",
      "test/fixtures/broken/stream-error-item/api.yaml:42:7 - error stream-error-item: the stream's `error` status error.status must be an integer field of the body",
      "test/fixtures/broken/stream-error-item/api.yaml:46:62 - error stream-error-item: the stream's `error` status error.code needs `body`, the type it is read from",
    ],
  },
  {
    name: "unresolved-ref",
    defect: "Mony instead of Money",
    expected: [
      "test/fixtures/broken/unresolved-ref/api.yaml:12:14 - error unresolved-ref: unknown type Mony; did you mean Money?",
    ],
  },
  {
    name: "unresolved-ref-array",
    defect: "LineItem[] | null where the type is LineItm",
    expected: [
      "test/fixtures/broken/unresolved-ref-array/api.yaml:9:14 - error unresolved-ref: unknown type LineItem; did you mean LineItm?",
    ],
  },
  {
    name: "unresolved-ref-map",
    defect:
      'type: "map<Mony>" in a flow mapping: the column is that of Mony inside the quoted string',
    expected: [
      "test/fixtures/broken/unresolved-ref-map/api.yaml:9:28 - error unresolved-ref: unknown type Mony; did you mean Money?",
    ],
  },
  {
    name: "unresolved-ref-header-schema",
    defect: "the schema of a shared header names Nonse",
    expected: [
      "test/fixtures/broken/unresolved-ref-header-schema/api.yaml:8:13 - error unresolved-ref: unknown type Nonse; did you mean Nonce?",
    ],
  },
  {
    name: "unknown-error-body",
    defect: "a version's errorBody names no type",
    expected: [
      "test/fixtures/broken/unknown-error-body/api.yaml:8:36 - error unresolved-ref: unknown type V1Eror; did you mean V1Error?",
    ],
  },
  {
    name: "unknown-api-error-body",
    defect: "the API's errors.body names no type",
    expected: [
      "test/fixtures/broken/unknown-api-error-body/api.yaml:7:9 - error unresolved-ref: unknown type Problm; did you mean Problem?",
    ],
  },

  // --- Declarations across files --------------------------------------------------------
  {
    name: "duplicate-type",
    defect: "Money declared in api.yaml and again in types.yaml",
    expected: [
      "test/fixtures/broken/duplicate-type/types.yaml:3:3 - error duplicate-declaration: type Money is declared twice; the first is at test/fixtures/broken/duplicate-type/api.yaml:7:3",
    ],
  },
  {
    name: "duplicate-endpoint",
    defect: "orders.list declared in a.yaml and again in b.yaml",
    expected: [
      "test/fixtures/broken/duplicate-endpoint/b.yaml:7:3 - error duplicate-declaration: endpoint orders.list is declared twice; the first is at test/fixtures/broken/duplicate-endpoint/a.yaml:7:3",
    ],
  },
  {
    name: "duplicate-callback",
    defect: "order.shipping declared in a.yaml and again in b.yaml",
    expected: [
      "test/fixtures/broken/duplicate-callback/b.yaml:5:3 - error duplicate-declaration: callback order.shipping is declared twice; the first is at test/fixtures/broken/duplicate-callback/a.yaml:7:3",
    ],
  },
  {
    name: "api-missing",
    defect: "no file declares `api`",
    expected: ["error api-missing: no spec file declares the `api` section (name, title, version)"],
  },
  {
    name: "api-twice",
    defect: "`api` declared in a.yaml and again in b.yaml",
    expected: [
      "test/fixtures/broken/api-twice/b.yaml:3:1 - error duplicate-declaration: section api is declared twice; the first is at test/fixtures/broken/api-twice/a.yaml:1:1",
    ],
  },

  // --- Operations ----------------------------------------------------------------------
  {
    name: "path-param-undeclared",
    defect: "{id} is in the path but not in params",
    expected: [
      "test/fixtures/broken/path-param-undeclared/api.yaml:9:32 - error path-param-undeclared: path parameter {id} is not declared in params",
    ],
  },
  {
    name: "path-param-unused",
    defect: "params declares id (in: path by default) but the path has no {id}",
    expected: [
      "test/fixtures/broken/path-param-unused/api.yaml:11:7 - error path-param-unused: parameter id is declared `in: path` but /orders has no {id}",
    ],
  },
  {
    name: "path-template-syntax",
    defect: "/orders/{id has no closing brace",
    expected: [
      "test/fixtures/broken/path-template-syntax/api.yaml:9:11 - error path-template-syntax: path /orders/{id has a malformed parameter placeholder",
      "test/fixtures/broken/path-template-syntax/api.yaml:10:15 - error path-param-unused: parameter id is declared `in: path` but /orders/{id has no {id}",
    ],
  },
  {
    name: "duplicate-route",
    defect: "two endpoints on GET /orders/{...}",
    expected: [
      "test/fixtures/broken/duplicate-route/api.yaml:11:3 - error duplicate-endpoint-route: GET /orders/{reference} is also endpoint orders.get",
    ],
  },
  {
    name: "path-names-differ",
    defect: "DELETE /orders/{reference} is GET /orders/{id} with another name",
    expected: [
      "test/fixtures/broken/path-names-differ/api.yaml:11:3 - error endpoint-path-names-differ: /orders/{reference} is the path of endpoint orders.get (/orders/{id}) with other parameter names; OpenAPI gives both one path item, so name the parameters alike",
    ],
  },
  {
    name: "unknown-credential",
    defect: "auth names apiKy",
    expected: [
      "test/fixtures/broken/unknown-credential/api.yaml:12:20 - error unknown-credential: unknown credential apiKy; did you mean apiKey?",
    ],
  },
  {
    name: "credential-no-header",
    defect: "a credential sent in: header with no header name",
    expected: [
      "test/fixtures/broken/credential-no-header/api.yaml:8:9 - error credential-header-missing: credential apiKey is sent `in: header` but names no header",
    ],
  },
  {
    name: "unknown-trigger",
    defect: "a lifecycle transition triggered by orders.cancle",
    expected: [
      "test/fixtures/broken/unknown-trigger/api.yaml:18:18 - error unknown-endpoint: unknown endpoint orders.cancle; did you mean orders.cancel?",
    ],
  },
  {
    name: "unknown-registration",
    defect: "webhooks.registration names webhooks.remove",
    expected: [
      "test/fixtures/broken/unknown-registration/api.yaml:11:35 - error unknown-endpoint: unknown endpoint webhooks.remove; did you mean webhooks.create?",
    ],
  },
  {
    name: "unknown-error-code",
    defect: "an endpoint error with code 1015, which errors.codes lacks",
    expected: [
      "test/fixtures/broken/unknown-error-code/api.yaml:15:30 - error unknown-error-code: error code 1015 is not in errors.codes",
    ],
  },
  {
    name: "unknown-version",
    defect: "an endpoint under /v2/ when only /v1/ is declared",
    expected: [
      "test/fixtures/broken/unknown-version/api.yaml:13:11 - error unknown-version: path /v2/orders matches no version prefix (/v1/)",
    ],
  },
  {
    name: "unknown-version-name",
    defect: "an error response scoped to version v2, which is not declared",
    expected: [
      "test/fixtures/broken/unknown-version-name/api.yaml:11:31 - error unknown-version-name: unknown version v2; declared: v1",
    ],
  },

  // --- Type meaning ---------------------------------------------------------------------
  {
    name: "infinite-mutual",
    defect: "Alpha requires Beta and Beta requires Alpha",
    expected: [
      "test/fixtures/broken/infinite-mutual/api.yaml:7:3 - error infinite-type: type Alpha can only be infinite: Alpha.beta -> Beta.alpha -> Alpha (make a field optional or nullable to end the chain)",
    ],
  },
  {
    name: "infinite-self",
    defect: "Node requires a Node",
    expected: [
      "test/fixtures/broken/infinite-self/api.yaml:7:3 - error infinite-type: type Node can only be infinite: Node.next -> Node (make a field optional or nullable to end the chain)",
    ],
  },
  {
    name: "alias-cycle",
    defect: "Id is Key and Key is Id",
    expected: [
      "test/fixtures/broken/alias-cycle/api.yaml:7:3 - error infinite-type: type Id can only be infinite: Id -> Key -> Id (make a field optional or nullable to end the chain)",
    ],
  },
  {
    name: "extends-not-object",
    defect: "Money extends Currency, a string",
    expected: [
      "test/fixtures/broken/extends-not-object/api.yaml:9:14 - error extends-not-object: Money can only extend an object type, and Currency is not one",
    ],
  },
  {
    name: "omit-unknown-field",
    defect: "omit names symbol, which Money lacks",
    expected: [
      "test/fixtures/broken/omit-unknown-field/api.yaml:13:22 - error omit-unknown-field: omit names symbol, which Money does not have",
    ],
  },
  {
    name: "extends-cycle",
    defect: "Left extends Right and Right extends Left",
    expected: [
      "test/fixtures/broken/extends-cycle/api.yaml:8:14 - error type-conflict: extends Right forms a cycle",
    ],
  },
  {
    name: "enum-mixed",
    defect: "enum: [small, 2, large]",
    expected: [
      "test/fixtures/broken/enum-mixed/api.yaml:8:11 - error enum-mixed-types: enum values must all be of one type; found string, integer",
    ],
  },
  {
    name: "enum-type-mismatch",
    defect: "type: integer with string enum values",
    expected: [
      "test/fixtures/broken/enum-type-mismatch/api.yaml:7:17 - error type-conflict: enum values are string but type is integer",
    ],
  },
  {
    name: "fields-with-type",
    defect: "type: string together with fields",
    expected: [
      "test/fixtures/broken/fields-with-type/api.yaml:7:18 - error type-conflict: a type with fields is an object, not string",
    ],
  },
  {
    name: "array-without-items",
    defect: "type: array without items",
    expected: [
      "test/fixtures/broken/array-without-items/api.yaml:7:3 - error schema-missing-key: missing required key items",
    ],
  },
  {
    name: "type-without-shape",
    defect: "a type with only a description",
    expected: [
      "test/fixtures/broken/type-without-shape/api.yaml:7:3 - error schema-missing-key: missing required key type (or fields, enum, const, items, values)",
    ],
  },

  // --- Several problems at once ---------------------------------------------------------
  {
    name: "many-problems",
    defect: "seven meaning problems across two files",
    expected: [
      "test/fixtures/broken/many-problems/a-api.yaml:13:19 - error path-param-undeclared: path parameter {id} is not declared in params",
      "test/fixtures/broken/many-problems/a-api.yaml:14:12 - error unknown-credential: unknown credential apiKee; did you mean apiKey?",
      "test/fixtures/broken/many-problems/a-api.yaml:15:23 - error unresolved-ref: unknown type Ordr; did you mean Order?",
      "test/fixtures/broken/many-problems/a-api.yaml:17:30 - error unknown-error-code: error code 404 is not in errors.codes",
      "test/fixtures/broken/many-problems/b-types.yaml:2:3 - error infinite-type: type Order can only be infinite: Order.owner -> Customer.last_order -> Order (make a field optional or nullable to end the chain)",
      "test/fixtures/broken/many-problems/b-types.yaml:5:14 - error unresolved-ref: unknown type OrderLine",
      "test/fixtures/broken/many-problems/b-types.yaml:10:17 - error unresolved-ref: unknown type Tag",
    ],
  },
  {
    name: "many-problems-load",
    defect: "schema problems in two files and a YAML syntax error in a third",
    expected: [
      "test/fixtures/broken/many-problems-load/a.yaml:4:12 - error schema-wrong-type: expected a string, got number 1",
      "test/fixtures/broken/many-problems-load/a.yaml:7:5 - error schema-unknown-key: unknown key feilds here (did you mean fields?); expected one of: type, description, undocumented, required, nullable, deprecated, default, fields, open, extends, omit, items, values, enum, const, format, pattern, prefix, minLength, maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems, uniqueItems, minProperties, maxProperties, unit, example, union, discriminator, expandable, readOnly, writeOnly, typeParams",
      "test/fixtures/broken/many-problems-load/b.yaml:3:1 - error yaml-syntax: YAML syntax: Flow map in block collection must be sufficiently indented and end with a }",
      "test/fixtures/broken/many-problems-load/c.yaml:2:3 - error schema-missing-key: missing required key path",
      'test/fixtures/broken/many-problems-load/c.yaml:3:13 - error schema-not-allowed: "FETCH" is not allowed here; expected one of: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, QUERY',
      "test/fixtures/broken/many-problems-load/c.yaml:4:3 - error schema-bad-name: name Orders.get is not `group.name` in camelCase (e.g. transactions.get)",
      'test/fixtures/broken/many-problems-load/c.yaml:6:11 - error schema-bad-name: value "orders" is not a path starting with /, without . or .. segments, ?, #, \\ or spaces',
    ],
  },
  {
    name: "params-misused",
    defect:
      "a query credential without `name`, `style` on a path parameter, `sendDefault` without `default`, an unknown string code, a header parameter also in `headers:`, a default not of its type, an Authorization and a Content-Length header parameter, a HEAD response with a body, a header parameter on a callback, examples not of their type (bytes' example may be their text)",
    expected: [
      "test/fixtures/broken/params-misused/api.yaml:7:17 - error credential-name-missing: credential apiKey is sent `in: query` but names no query parameter (`name:`)",
      "test/fixtures/broken/params-misused/api.yaml:19:34 - error param-style-misplaced: parameter id has `style: comma`, which only a query parameter takes",
      "test/fixtures/broken/params-misused/api.yaml:20:53 - error param-default-missing: parameter sort has `sendDefault: true` but no `default:` to send",
      "test/fixtures/broken/params-misused/api.yaml:22:30 - error unknown-error-code: error code card_declinde is not in errors.codes",
      "test/fixtures/broken/params-misused/api.yaml:29:7 - error param-header-duplicate: header parameter if-none-match is also listed in the endpoint's `headers:`; keep one",
      'test/fixtures/broken/params-misused/api.yaml:30:54 - error type-conflict: default "30" is not a value of the type (integer)',
      "test/fixtures/broken/params-misused/api.yaml:31:7 - error param-header-reserved: header parameter authorization is a header the client sets: use `headers:` for Accept and Content-Type, a credential for Authorization; fetch writes Content-Length, Host, Connection and the other framing headers itself",
      // fetch writes it from the body (Vercel's artifact upload declares it)
      "test/fixtures/broken/params-misused/api.yaml:32:7 - error param-header-reserved: header parameter Content-Length is a header the client sets: use `headers:` for Accept and Content-Type, a credential for Authorization; fetch writes Content-Length, Host, Connection and the other framing headers itself",
      "test/fixtures/broken/params-misused/api.yaml:36:23 - error head-response-body: a HEAD response has no body; declare the GET endpoint's body instead",
      "test/fixtures/broken/params-misused/api.yaml:43:22 - error param-placement-callback: parameter X-Trace is `in: header`: callbacks take path, query and trailing parameters only",
      // the stand-in answers with an example: one of another type would be refused by the package's checks
      'test/fixtures/broken/params-misused/api.yaml:48:36 - error type-conflict: example "1551718800" is not a value of the type (number)',
      'test/fixtures/broken/params-misused/api.yaml:49:44 - error type-conflict: example "medium" is not a value of the type (one of "low", "high")',
      // an object's example that is its JSON text (Microcks'), an array's that is an object
      'test/fixtures/broken/params-misused/api.yaml:54:14 - error type-conflict: example "{\\"name\\": \\"Gogs\\"}" is not a value of the type (an object)',
      'test/fixtures/broken/params-misused/api.yaml:57:14 - error type-conflict: example {"ts":1} is not a value of the type (an array)',
    ],
  },
  {
    name: "auth-header-shared",
    defect:
      "two required credentials in Authorization (basic and bearer), two API keys of one header name in different case; the same two marked optional (either will do) pass",
    expected: [
      "test/fixtures/broken/auth-header-shared/api.yaml:14:3 - error auth-header-shared: credentials basicAuth and bearerAuth are both required, and both travel in the Authorization header, which a request sends once; if either will do, mark each `optional: true` (sent when the client has it)",
      "test/fixtures/broken/auth-header-shared/api.yaml:18:3 - error auth-header-shared: credentials keyA and keyB are both required, and both travel in the x-key header, which a request sends once; if either will do, mark each `optional: true` (sent when the client has it)",
    ],
  },
  {
    name: "param-slashes",
    defect:
      "`slashes: true` on a path parameter that is not the path's last segment, on an integer, before a trailing parameter, on a query parameter and on a callback's path parameter",
    expected: [
      "test/fixtures/broken/param-slashes/api.yaml:11:38 - error param-slashes: parameter path has `slashes: true`, but {path} is not the whole last segment of /files/{path}/meta: a value with slashes is sent as the path's last segments, for a catch-all parameter",
      "test/fixtures/broken/param-slashes/api.yaml:16:7 - error param-slashes: parameter dir has `slashes: true`, but its type is not a string: a value with slashes is sent as the path's last segments, for a catch-all parameter",
      "test/fixtures/broken/param-slashes/api.yaml:21:38 - error param-slashes: parameter name has `slashes: true`, but the endpoint has trailing parameters, which would follow it: a value with slashes is sent as the path's last segments, for a catch-all parameter",
      "test/fixtures/broken/param-slashes/api.yaml:27:46 - error param-slashes: parameter q has `slashes: true`, but only an endpoint's path parameter takes it: a value with slashes is sent as the path's last segments, for a catch-all parameter",
      "test/fixtures/broken/param-slashes/api.yaml:34:38 - error param-slashes: parameter path has `slashes: true`, but only an endpoint's path parameter takes it: a value with slashes is sent as the path's last segments, for a catch-all parameter",
    ],
  },
  {
    name: "header-invalid",
    defect:
      "CR/LF in an authorization scheme, a fixed header's name and value (short and long form), a fixed value above U+00FF; Latin-1 (café) is a header value",
    expected: [
      'test/fixtures/broken/header-invalid/api.yaml:10:13 - error schema-bad-name: value "Bearer\\r\\nX-Evil: 1" is not an authorization scheme (a token: letters, digits and !#$%&\'*+-.^_`|~)',
      'test/fixtures/broken/header-invalid/api.yaml:18:7 - error schema-bad-name: name "X-Fixed\\nX-Evil" is not an HTTP header name (a token: letters, digits and !#$%&\'*+-.^_`|~)',
      'test/fixtures/broken/header-invalid/api.yaml:19:16 - error schema-bad-name: value "v\\r\\nX-Injected: 1" is not a header value (tab, space, visible ASCII and U+0080-U+00FF: no line break, control character or character above U+00FF)',
      'test/fixtures/broken/header-invalid/api.yaml:20:15 - error schema-bad-name: value "Ā" is not a header value (tab, space, visible ASCII and U+0080-U+00FF: no line break, control character or character above U+00FF)',
      'test/fixtures/broken/header-invalid/api.yaml:22:26 - error schema-bad-name: value "a\\nb" is not a header value (tab, space, visible ASCII and U+0080-U+00FF: no line break, control character or character above U+00FF)',
    ],
  },
  {
    name: "header-param-name",
    defect:
      "header parameters named with CR/LF and with a space (a query parameter's name may have one)",
    expected: [
      'test/fixtures/broken/header-param-name/api.yaml:12:7 - error param-header-name: header parameter "X-Param\\r\\nX-Evil" is not an HTTP header name (a token: letters, digits and !#$%&\'*+-.^_`|~); fetch would refuse every call',
      'test/fixtures/broken/header-param-name/api.yaml:13:7 - error param-header-name: header parameter "X-Spaced Name" is not an HTTP header name (a token: letters, digits and !#$%&\'*+-.^_`|~); fetch would refuse every call',
    ],
  },
  {
    name: "path-dot-segment",
    defect:
      "endpoint paths with a `..` segment (it would climb out of the base URL's path), a query, and a percent-encoded `..`",
    expected: [
      'test/fixtures/broken/path-dot-segment/api.yaml:9:11 - error schema-bad-name: value "/v1/../admin" is not a path starting with /, without . or .. segments, ?, #, \\ or spaces',
      'test/fixtures/broken/path-dot-segment/api.yaml:13:11 - error schema-bad-name: value "/v1/files?raw=1" is not a path starting with /, without . or .. segments, ?, #, \\ or spaces',
      'test/fixtures/broken/path-dot-segment/api.yaml:17:11 - error schema-bad-name: value "/v1/%2e%2e/x" is not a path starting with /, without . or .. segments, ?, #, \\ or spaces',
    ],
  },
  {
    name: "webhook-event-selector-missing",
    defect: "webhooks.events without eventHeader or eventField",
    expected: [
      "test/fixtures/broken/webhook-event-selector-missing/api.yaml:17:3 - error webhook-event-selector-missing: webhooks.events needs eventHeader (the request header that names the event, e.g. X-GitHub-Event) or eventField (the payload field that does, e.g. type)",
    ],
  },
  {
    name: "replay-places",
    defect:
      "a delivery id on a header credential, a t= item and a header name that cannot be, a body id on a callback without a body",
    expected: [
      "test/fixtures/broken/replay-places/api.yaml:10:5 - error credential-replay-misplaced: deliveryId belongs to a signature credential (`in: signature`), where the router reads it; credential apiKey is `in: header`",
      'test/fixtures/broken/replay-places/api.yaml:14:39 - error credential-replay-name: timestamp.name "t=" is not the key of a `key=value` item of the signature header (letters, digits, _ and -)',
      'test/fixtures/broken/replay-places/api.yaml:19:36 - error credential-replay-name: timestamp.name "X Timestamp" is not an HTTP header name (a token: letters, digits and !#$%&\'*+-.^_`|~)',
      "test/fixtures/broken/replay-places/api.yaml:22:3 - error callback-delivery-id-body: callback order.viewed has no body, so it cannot carry the delivery id that credential signer reads from the body field id",
    ],
  },
  {
    name: "signature-schemes",
    defect:
      "a prefix on a header credential, a misspelt scheme, a prefix and a header timestamp on the timestamped scheme, a body delivery id on Standard Webhooks, a t= item under an HMAC scheme (a warning); a signs template on the timestamped scheme, naming an unknown slot, without the body, naming a time and an id the credential carries in no header",
    expected: [
      "test/fixtures/broken/signature-schemes/api.yaml:10:5 - error signature-prefix-misplaced: prefix belongs to a signature credential whose scheme is hmac-sha256-base64 or hmac-sha256-hex (the text before the digest, e.g. sha256=); credential apiKey is `in: header`",
      'test/fixtures/broken/signature-schemes/api.yaml:14:13 - error signature-scheme-unknown: unknown signature scheme "timestamp" (the schemes: hmac-sha256-base64, hmac-sha256-hex, timestamped, standard-webhooks, token); did you mean timestamped?',
      "test/fixtures/broken/signature-schemes/api.yaml:19:5 - error signature-prefix-misplaced: prefix belongs to a signature credential whose scheme is hmac-sha256-base64 or hmac-sha256-hex (the text before the digest, e.g. sha256=); credential stamped has the scheme timestamped",
      "test/fixtures/broken/signature-schemes/api.yaml:20:22 - error signature-scheme-place: scheme timestamped reads the signing time from an item of the signature header, so timestamp must be `in: signature` (or left out: the item t)",
      "test/fixtures/broken/signature-schemes/api.yaml:25:23 - error signature-scheme-place: scheme standard-webhooks reads the delivery id from a header, so deliveryId must be `in: header` (or left out: the header webhook-id)",
      "test/fixtures/broken/signature-schemes/api.yaml:29:22 - warning signature-timestamp-item: credential itemWithoutScheme carries the signing time in the t= item of Hook-Signature, but its scheme hmac-sha256-base64 writes the digest alone there; name the scheme that writes both (`scheme: timestamped`), or the router needs a signature.decode and compute of the receiver's",
      "test/fixtures/broken/signature-schemes/api.yaml:34:5 - error signature-signs-misplaced: signs belongs to a signature credential whose scheme is hmac-sha256-base64 or hmac-sha256-hex (what the digest covers, e.g. v0:{timestamp}:{body}); credential templateOnStamped has the scheme timestamped",
      'test/fixtures/broken/signature-schemes/api.yaml:38:12 - error signature-signs-invalid: signs "v0:{ts}:{body}" of credential templateSlot is not a template the router can read: {ts} is none of {timestamp}, {id}, {body}',
      'test/fixtures/broken/signature-schemes/api.yaml:42:12 - error signature-signs-invalid: signs "v0:{timestamp}" of credential templateNoBody is not a template the router can read: it must name the raw body, {body}, exactly once',
      "test/fixtures/broken/signature-schemes/api.yaml:48:12 - error signature-signs-place: signs of credential templateUndeclared names {timestamp}, the value of a header, but the credential declares no timestamp; declare it: `timestamp: { in: header, name: <header> }`",
      "test/fixtures/broken/signature-schemes/api.yaml:48:12 - error signature-signs-place: signs of credential templateUndeclared names {id}, the value of a header, but its deliveryId is `in: body`; declare it: `deliveryId: { in: header, name: <header> }`",
    ],
  },
  {
    name: "delivery-header-type",
    defect: "webhooks.headers with an array and an object, which no header text can be read as",
    expected: [
      "test/fixtures/broken/delivery-header-type/api.yaml:16:13 - error delivery-header-type: delivery header X-Tags must be string, integer, number, boolean or a string enum; string[] cannot be read from a header",
      "test/fixtures/broken/delivery-header-type/api.yaml:18:7 - error delivery-header-type: delivery header X-Meta must be string, integer, number, boolean or a string enum; object cannot be read from a header",
    ],
  },
  {
    name: "webhook-event-selector-twice",
    defect: "both eventHeader and eventField",
    expected: [
      "test/fixtures/broken/webhook-event-selector-twice/api.yaml:18:3 - error webhook-event-selector-twice: eventHeader and eventField both say where a delivery names its event; keep one",
    ],
  },
  {
    name: "webhook-events-missing",
    defect: "eventHeader with one payload and no events",
    expected: [
      "test/fixtures/broken/webhook-events-missing/api.yaml:17:3 - error webhook-events-missing: eventHeader says where a delivery names its event, but webhooks lists no events (add events: name -> { payload })",
    ],
  },
  {
    name: "webhook-payload-and-events",
    defect: "both payload and events",
    expected: [
      "test/fixtures/broken/webhook-payload-and-events/api.yaml:20:3 - error webhook-payload-and-events: webhooks has both payload (one payload for every delivery) and events (a payload per event); keep one",
    ],
  },
  {
    name: "webhook-event-field",
    defect:
      "eventField: type, and pong's payload declares type as the const ping, zen's payload is a string",
    expected: [
      'test/fixtures/broken/webhook-event-field/api.yaml:20:22 - error webhook-event-field: deliveries of pong carry type: "pong", but its payload declares type as "ping"',
      'test/fixtures/broken/webhook-event-field/api.yaml:21:21 - error webhook-event-field: deliveries of zen carry type: "zen", but its payload is not an object, so it has no field type',
    ],
  },
  {
    name: "webhook-event-clash",
    defect: "a webhook event and a callback both named ping",
    expected: [
      "test/fixtures/broken/webhook-event-clash/api.yaml:25:5 - error webhook-event-clash: webhook event ping has the name of a callback; the OpenAPI document keys both by name under `webhooks`",
    ],
  },
  {
    name: "flow-comma-unquoted",
    defect:
      "`{ ..., description: Results per page (max 100, default 30). }`: the comma ends the unquoted value; a value with two commas (a trial of Twitch's API): one error, its quote to the end",
    expected: [
      'test/fixtures/broken/flow-comma-unquoted/api.yaml:11:85 - error schema-comma-in-flow: unknown key default 30). here: inside `{ }` a comma ends a value, so the value of description stopped at the comma; quote it: description: "Results per page (max 100, default 30)."',
      'test/fixtures/broken/flow-comma-unquoted/api.yaml:16:81 - error schema-comma-in-flow: unknown key Bad Request here: inside `{ }` a comma ends a value, so the value of description stopped at the comma; quote it: description: "The HTTP reason phrase (Unauthorized, Bad Request, ...)."',
    ],
  },
  {
    name: "bad-error-status",
    defect:
      "the second error response has `status: 2000` (neither 400 to 599 nor 4xx/5xx): one error, not two, at the value in that item (not the list's first)",
    expected: [
      "test/fixtures/broken/bad-error-status/api.yaml:13:19 - error schema-bad-value: status must be <= 599",
    ],
  },
  {
    name: "alias-cycle-through-union",
    defect:
      "Expandable is Reference | string and Reference is Expandable | integer: finite values, but TypeScript rejects the aliases (Tree's field through a union is fine)",
    expected: [
      "test/fixtures/broken/alias-cycle-through-union/api.yaml:7:3 - error alias-cycle: type Expandable is an alias of itself: Expandable -> Reference -> Expandable (TypeScript cannot declare it; put an object or array in the cycle)",
    ],
  },
  {
    name: "query-param-shape",
    defect:
      "an object query parameter without style deepObject, an array of objects, and a deepObject nesting an object (an integer | object with deepObject is fine)",
    expected: [
      "test/fixtures/broken/query-param-shape/api.yaml:16:7 - error param-query-shape: query parameter created is an object, which travels in a query string only with `style: deepObject` (name[field]=value)",
      "test/fixtures/broken/query-param-shape/api.yaml:17:7 - error param-query-shape: query parameter items is an array of objects or arrays, which no query style can carry",
      "test/fixtures/broken/query-param-shape/api.yaml:18:7 - error param-query-shape: query parameter deep nests objects below its fields, which `style: deepObject` does not carry (one level: name[field]=value)",
    ],
  },
  {
    name: "path-param-shape",
    defect:
      "an object path parameter, an array of objects in a path segment, and an object header (a list of integers in the path and a string header are fine)",
    expected: [
      "test/fixtures/broken/path-param-shape/api.yaml:14:7 - error param-value-shape: path parameter color is an object, which a path parameter cannot carry (a scalar, or a list of scalars sent comma-separated); make it a string the caller writes as the server reads it",
      "test/fixtures/broken/path-param-shape/api.yaml:15:7 - error param-value-shape: path parameter tags is an array of objects or arrays, which a path parameter cannot carry (a scalar, or a list of scalars sent comma-separated); make it a string the caller writes as the server reads it",
      "test/fixtures/broken/path-param-shape/api.yaml:17:7 - error param-value-shape: header parameter filter is an object, which a header parameter cannot carry (a scalar, or a list of scalars sent comma-separated); make it a string the caller writes as the server reads it",
    ],
  },
  {
    name: "pagination-misused",
    defect:
      "one pagination mistake per endpoint: a key of another style, items that is no field or no array or left out of an object body, a param that is not a query parameter (named, and an implicit default name), a cursor that is no scalar field of the item, hasMore not a boolean, a paged endpoint without a body, header and field both, a token that is an array, a total that is no field, stopOnEmptyPage on offset (which cannot move on from an empty page), paging in: body without a request body, with a name that is no field of it, with a body that is an array, and in on the link style",
    expected: [
      "test/fixtures/broken/pagination-misused/api.yaml:25:82 - error pagination-key-style: token does not belong to pagination style cursor, which takes: items, in, param, cursor, hasMore",
      "test/fixtures/broken/pagination-misused/api.yaml:31:41 - error pagination-items: items date is not a field of CustomerList; did you mean data?",
      "test/fixtures/broken/pagination-misused/api.yaml:37:41 - error pagination-items: items has_more is a boolean, not an array of the page's items",
      "test/fixtures/broken/pagination-misused/api.yaml:43:19 - error pagination-items: the response body CustomerList is not an array: name the field that holds the items with items:",
      "test/fixtures/broken/pagination-misused/api.yaml:49:54 - error pagination-param: param names starting_afer, which is not a query parameter of e.list; did you mean starting_after?",
      "test/fixtures/broken/pagination-misused/api.yaml:55:78 - error pagination-field: cursor tags is an array; it must be a string or number field of the item type Customer",
      "test/fixtures/broken/pagination-misused/api.yaml:61:91 - error pagination-field: hasMore url is a string; it must be a boolean field of the response body",
      "test/fixtures/broken/pagination-misused/api.yaml:67:5 - error pagination-response: pagination needs a JSON response body to read pages from; h.list declares no response body",
      "test/fixtures/broken/pagination-misused/api.yaml:73:26 - error pagination-param: offset names offset, which is not a query parameter of i.list (the default name; declare it, or name the endpoint's own with offset:)",
      "test/fixtures/broken/pagination-misused/api.yaml:78:45 - error pagination-link-twice: header and field both say where the next link is; keep one (header for a Link header, field for a URL in the body)",
      "test/fixtures/broken/pagination-misused/api.yaml:84:76 - error pagination-field: token data is an array; it must be a string field of the response body",
      "test/fixtures/broken/pagination-misused/api.yaml:90:52 - error pagination-field: total links.count is not a field of links; it must be a number field of the response body",
      "test/fixtures/broken/pagination-misused/api.yaml:96:47 - error pagination-key-style: stopOnEmptyPage does not belong to pagination style offset, which takes: items, in, offset, limit, total, hasMore",
      "test/fixtures/broken/pagination-misused/api.yaml:101:41 - error pagination-body: pagination in: body moves the walk on through a field of the request body, and n.search declares no request body",
      "test/fixtures/broken/pagination-misused/api.yaml:107:67 - error pagination-param: param names pageToken, which is not a field of the request body of o.search; did you mean page_token?",
      "test/fixtures/broken/pagination-misused/api.yaml:113:38 - error pagination-body: pagination in: body moves the walk on through a field of the request body, and p.search sends an array, not an object with fields",
      "test/fixtures/broken/pagination-misused/api.yaml:118:32 - error pagination-key-style: in does not belong to pagination style link, which takes: items, header, field, stopOnEmptyPage",
    ],
  },
  {
    name: "pagination-schema",
    defect: "pagination with an unknown style, an unknown key, and a field path with an empty step",
    expected: [
      'test/fixtures/broken/pagination-schema/api.yaml:11:26 - error schema-not-allowed: "cursr" is not allowed here (did you mean cursor?); expected one of: cursor, nextToken, offset, page, link',
      "test/fixtures/broken/pagination-schema/api.yaml:16:32 - error schema-unknown-key: unknown key itemz here (did you mean items?); expected one of: style, items, in, param, cursor, hasMore, token, offset, limit, total, page, perPage, header, field, stopOnEmptyPage",
      'test/fixtures/broken/pagination-schema/api.yaml:21:39 - error schema-bad-name: value "links..next" is not a dot path of field names such as links.next',
    ],
  },
  {
    name: "requests-misused",
    defect:
      "headers every request sends that the body or a credential sets (Content-Type, a credential's header in other case), a version header the API's headers list too, a current version not listed, a prefix under versioning by header, a download of a media range (image/*) typed as a string, not bytes",
    expected: [
      "test/fixtures/broken/requests-misused/api.yaml:12:3 - error header-fixed-reserved: header Content-Type cannot be sent with one value on every request: each request body has its own Content-Type (an endpoint's `contentType`)",
      "test/fixtures/broken/requests-misused/api.yaml:13:3 - error header-fixed-reserved: header x-key cannot be sent with one value on every request: credential key is sent in it",
      "test/fixtures/broken/requests-misused/api.yaml:18:11 - error header-fixed-reserved: header X-Note cannot be sent with one value on every request: the API's `headers:` lists it too; the versioning fills it",
      "test/fixtures/broken/requests-misused/api.yaml:19:12 - error versioning-current-unknown: current version 2025-01-01 is not one of the versions listed: 2024-01-01",
      "test/fixtures/broken/requests-misused/api.yaml:21:29 - error versioning-key-misplaced: `prefix` belongs to versioning by path prefix; this API is versioned by header (`scheme: header` versions by a request header)",
      "test/fixtures/broken/requests-misused/api.yaml:28:60 - error body-content-type: a response of the range image/* carries bytes of any type it covers: its body must be of type binary (a Blob of the type the server sends)",
    ],
  },
  {
    name: "versioning-keys",
    defect:
      "versioning by path prefix (no scheme) given the header scheme's header and current, and a version without its prefix",
    expected: [
      "test/fixtures/broken/versioning-keys/api.yaml:12:3 - error versioning-key-misplaced: `header` belongs to versioning by header; this API is versioned by path prefix (`scheme: header` versions by a request header)",
      "test/fixtures/broken/versioning-keys/api.yaml:13:3 - error versioning-key-misplaced: `current` belongs to versioning by header; this API is versioned by path prefix (`scheme: header` versions by a request header)",
      "test/fixtures/broken/versioning-keys/api.yaml:16:5 - error versioning-key-missing: versioning by path prefix needs `prefix`: the path prefix of version v2's endpoints",
    ],
  },
  {
    name: "not-modified-misused",
    defect:
      "notModified on a POST, beside a header parameter of the conditional headers, and on a paged list",
    expected: [
      "test/fixtures/broken/not-modified-misused/api.yaml:13:43 - error not-modified-misplaced: `notModified` needs a GET or HEAD endpoint; notes.create is a POST",
      "test/fixtures/broken/not-modified-misused/api.yaml:19:7 - error param-header-conditional: header parameter If-None-Match is what `notModified` sends from the call's `ifNoneMatch` option; leave the parameter out",
      "test/fixtures/broken/not-modified-misused/api.yaml:29:20 - error not-modified-misplaced: `notModified` cannot go with pagination: a walk reads every page whole",
    ],
  },
  {
    name: "host-unknown",
    defect: "an endpoint naming a host the spec does not list",
    expected: [
      "test/fixtures/broken/host-unknown/api.yaml:16:11 - error host-unknown: host file is not one of the API's `hosts:` (uploads, files)",
    ],
  },
  {
    name: "host-address-invalid",
    defect: "a host address with a query, which endpoint paths cannot follow",
    expected: [
      'test/fixtures/broken/host-address-invalid/api.yaml:9:23 - error schema-bad-name: value "https://uploads.example/v1?x=1" is not an http(s) URL without query or fragment',
    ],
  },
  {
    name: "api-header-invalid",
    defect:
      "headers every request sends whose values fetch would refuse: a character above U+00FF, a line break in a mapping's value",
    expected: [
      'test/fixtures/broken/api-header-invalid/api.yaml:9:12 - error schema-bad-name: value "5 €" is not a header value (tab, space, visible ASCII and U+0080-U+00FF: no line break, control character or character above U+00FF)',
      'test/fixtures/broken/api-header-invalid/api.yaml:10:20 - error schema-bad-name: value "a\\nb" is not a header value (tab, space, visible ASCII and U+0080-U+00FF: no line break, control character or character above U+00FF)',
    ],
  },
  {
    name: "auth-entry-shape",
    defect:
      "scopes written as a string inside an anyOf member (the Google Calendar trial): one error at the value, not one per shape an auth entry may take; a credential listed twice as it is, said once (by the schema), at the repeat",
    expected: [
      'test/fixtures/broken/auth-entry-shape/api.yaml:14:51 - error schema-wrong-type: expected a list, got string "read"',
      "test/fixtures/broken/auth-entry-shape/api.yaml:19:17 - error schema-bad-value: auth lists key twice (items 1 and 2): once is enough",
    ],
  },
  {
    name: "oauth-credentials",
    defect:
      "OAuth credentials with keys of other kinds, a token URL that is no https: URL, no flows, no provider URL; a scope no flow grants, scopes of an API key, scopes on a callback; anyOf beside an optional credential, twice, on a callback; a credential listed twice (in anyOf with other scopes, and in two groups)",
    expected: [
      "test/fixtures/broken/oauth-credentials/api.yaml:9:5 - error credential-key-misplaced: header does not belong on credential oauth (`in: oauth2`): its token is always sent as `Authorization: Bearer <token>`",
      'test/fixtures/broken/oauth-credentials/api.yaml:12:19 - error credential-url-invalid: tokenUrl "ftp://auth.example.com/token" is not an https: or http: URL, nor a path relative to the base URL',
      "test/fixtures/broken/oauth-credentials/api.yaml:15:9 - error credential-flows-missing: credential noFlows is `in: oauth2` but lists no flows (`flows:`, e.g. `clientCredentials: { tokenUrl, scopes }`)",
      "test/fixtures/broken/oauth-credentials/api.yaml:17:9 - error credential-url-missing: credential provider is `in: openIdConnect` but names no discovery document (`url:`, the provider's .well-known/openid-configuration)",
      "test/fixtures/broken/oauth-credentials/api.yaml:18:5 - error credential-key-misplaced: flows does not belong on credential provider (`in: openIdConnect`): an OpenID Connect provider's flows are in its discovery document (`url`)",
      "test/fixtures/broken/oauth-credentials/api.yaml:22:5 - error credential-key-misplaced: url does not belong on credential key (`in: header`): url belongs to an `in: openIdConnect` credential",
      "test/fixtures/broken/oauth-credentials/api.yaml:28:42 - error auth-scope-unknown: scope orders:raed is granted by no flow of credential oauth; did you mean orders:read?",
      "test/fixtures/broken/oauth-credentials/api.yaml:28:77 - error auth-scopes-misplaced: scopes are asked of credential key, but it is no `in: oauth2` or `in: openIdConnect` credential",
      "test/fixtures/broken/oauth-credentials/api.yaml:33:12 - error auth-any-of-misplaced: anyOf (credentials of which any one will do) cannot be here: beside it, a credential marked optional; list it in the group, or make it required",
      "test/fixtures/broken/oauth-credentials/api.yaml:38:82 - error auth-credential-twice: credential oauth is listed twice in this auth; a call sends it once, with the scopes of one entry (scopes any one of which will do cannot be said yet: list those every alternative needs)",
      "test/fixtures/broken/oauth-credentials/api.yaml:43:12 - error auth-any-of-misplaced: anyOf (credentials of which any one will do) cannot be here: an operation has one group of alternatives",
      "test/fixtures/broken/oauth-credentials/api.yaml:43:57 - error auth-credential-twice: credential key is listed twice in this auth; a call sends it once, with the scopes of one entry (scopes any one of which will do cannot be said yet: list those every alternative needs)",
      "test/fixtures/broken/oauth-credentials/api.yaml:50:33 - error auth-scopes-misplaced: scopes are asked of credential oauth, but a call to the user's server carries no token of theirs",
      "test/fixtures/broken/oauth-credentials/api.yaml:55:12 - error auth-any-of-misplaced: anyOf (credentials of which any one will do) cannot be here: a call to the user's server carries the API's own signature, not one of several",
    ],
  },
];

/**
 * Problems the generator has no catalogue wording for yet: these pin the place and the
 * count, and leave the code and message to whoever adds the check.
 */
const uncheckedCases: { name: string; defect: string; expected: RegExp[] }[] = [
  {
    name: "alias-cycle-through-null",
    defect:
      "Maybe is Maybe | null; First is Second | null and Second is First (TypeScript rejects these aliases)",
    expected: [
      /^test\/fixtures\/broken\/alias-cycle-through-null\/api\.yaml:7:3 - error [a-z-]+: .*\bMaybe\b/,
      /^test\/fixtures\/broken\/alias-cycle-through-null\/api\.yaml:8:3 - error [a-z-]+: .*\bFirst\b.*\bSecond\b/,
    ],
  },
  {
    name: "const-type-mismatch",
    defect: 'type: integer with const: "1" (a string)',
    expected: [
      /^test\/fixtures\/broken\/const-type-mismatch\/api\.yaml:7:17 - error type-conflict: .*\bstring\b.*\binteger\b/,
    ],
  },
];

describe("broken specs report every problem exactly", () => {
  for (const { name, defect, expected } of cases) {
    it(`${name}: ${defect}`, async () => {
      expect(await diagnosticsOf(`test/fixtures/broken/${name}`)).toEqual(expected);
    });
  }

  for (const { name, defect, expected } of uncheckedCases) {
    it(`${name}: ${defect}`, async () => {
      const list = await diagnosticsOf(`test/fixtures/broken/${name}`);
      expect(list).toHaveLength(expected.length);
      expected.forEach((pattern, i) => expect(list[i]).toMatch(pattern));
    });
  }

  it("has a test for every fixture folder", () => {
    const tested = [...cases, ...uncheckedCases].map((c) => c.name).sort();
    expect(readdirSync(brokenDir).sort()).toEqual(tested);
    expect(new Set(tested).size).toBe(tested.length);
  });
});

/** Every file below `dir` with its contents, for before/after comparison. */
function snapshotFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    const full = join(dir, entry);
    out[entry] = statSync(full).isDirectory() ? "<dir>" : readFileSync(full, "utf8");
  }
  return out;
}

/** An output folder that already holds a user file and an older package file. */
function occupiedOutDir(): string {
  const out = tempDir("apigen-broken-out-");
  writeFileSync(join(out, "keep.txt"), "the user's own file\n");
  mkdirSync(join(out, "src"));
  writeFileSync(
    join(out, "src/types.ts"),
    "// Generated by apigen from an older spec.\nexport type Old = string;\n",
  );
  return out;
}

const locationLine = /^(?<file>[^\s:]+):(?<line>\d+):(?<col>\d+) - error [a-z-]+: .+$/;

/**
 * Checks the code frame printed under the diagnostic at `lines[at]`: the previous source
 * line (when there is one), the marked line `> N | ...`, then a caret under the column.
 * Returns the index of the line after the frame.
 */
function expectCodeFrame(lines: string[], at: number): number {
  const match = locationLine.exec(lines[at] ?? "");
  expect(match, `not a diagnostic line: ${lines[at]}`).not.toBeNull();
  const { file, line, col } = match!.groups!;
  const lineNo = Number(line);
  const source = readFileSync(join(repoRoot, file!), "utf8").split("\n");
  let i = at + 1;
  const width = String(lineNo).length;
  if (lineNo > 1) {
    expect(lines[i]).toBe(`  ${String(lineNo - 1).padStart(width)} | ${source[lineNo - 2]}`);
    i++;
  }
  expect(lines[i]).toBe(`> ${lineNo} | ${source[lineNo - 1]}`);
  i++;
  expect(lines[i]).toBe(`  ${" ".repeat(width)} | ${" ".repeat(Number(col) - 1)}^`);
  return i + 1;
}

describe("warnings", () => {
  it("prints a warning with its frame and still generates: a pattern open to catastrophic backtracking", async () => {
    const out = tempDir("apigen-warned-out-");
    const run = await runCli([
      "--spec",
      "test/fixtures/warnings/pattern-backtracking",
      "--out",
      out,
    ]);
    expect(run.status).toBe(0);
    expect(run.stderr.split("\n").slice(0, 4)).toEqual([
      'test/fixtures/warnings/pattern-backtracking/api.yaml:9:14 - warning pattern-backtracking: pattern "^([a-z0-9]+-?)+$" repeats a group that itself repeats; a hostile string can make it run for minutes (catastrophic backtracking): rewrite it without the nested repetition',
      "  8 |     type: string",
      '> 9 |     pattern: "^([a-z0-9]+-?)+$"',
      "    |              ^",
    ]);
    expect(run.stderr).toMatch(/0 errors, 1 warning\n$/);
    expect(run.stdout).toMatch(/added/);
  });
});

describe("facets beside a list or a map (the Mailgun and Notion trials) or of another kind (PayPal's), open on an untagged union (Twitch's)", () => {
  it("are warnings, left out of the package and its OpenAPI document, and it still generates", async () => {
    const out = tempDir("apigen-facets-out-");
    const run = await runCli(["--spec", "test/fixtures/warnings/facet-on-container", "--out", out]);
    expect(run.status).toBe(0);
    expect(run.stderr.split("\n").filter((line) => / - warning /.test(line))).toEqual([
      "test/fixtures/warnings/facet-on-container/api.yaml:11:33 - warning facet-on-container: maxLength holds a text or a number to a limit, and this type is an array: left out, as no check would hold it; to hold each of its items to it, write them with it (items: { type: ..., maxLength: ... })",
      "test/fixtures/warnings/facet-on-container/api.yaml:12:37 - warning facet-on-container: maximum holds a text or a number to a limit, and this type is an array: left out, as no check would hold it; to hold each of its items to it, write them with it (items: { type: ..., maximum: ... })",
      "test/fixtures/warnings/facet-on-container/api.yaml:13:38 - warning facet-on-container: pattern holds a text or a number to a limit, and this type is a map: left out, as no check would hold it; to hold each of its values to it, write them with it (values: { type: ..., pattern: ... })",
      "test/fixtures/warnings/facet-on-container/api.yaml:16:39 - warning facet-of-another-kind: maxItems holds an array's count to a limit, and this type is a map: no check holds it, so it is left out",
      "test/fixtures/warnings/facet-on-container/api.yaml:17:32 - warning facet-of-another-kind: minItems holds an array's count to a limit, and this type is a reference to Amount: no check holds it, so it is left out; write it where Amount is declared",
      "test/fixtures/warnings/facet-on-container/api.yaml:18:35 - warning facet-of-another-kind: maxProperties holds an object's count of entries to a limit, and this type is an array: no check holds it, so it is left out",
      "test/fixtures/warnings/facet-on-container/api.yaml:23:30 - warning facet-of-another-kind: maxLength holds a text to a limit, and this type is number: no check holds it, so it is left out; a number the API sends as text is `type: string` with it",
      "test/fixtures/warnings/facet-on-container/api.yaml:23:45 - warning facet-of-another-kind: pattern holds a text to a limit, and this type is number: no check holds it, so it is left out; a number the API sends as text is `type: string` with it",
      "test/fixtures/warnings/facet-on-container/api.yaml:24:31 - warning facet-of-another-kind: minimum holds a number to a limit, and this type is boolean: no check holds it, so it is left out",
      "test/fixtures/warnings/facet-on-container/api.yaml:25:29 - warning facet-of-another-kind: maxItems holds an array's count to a limit, and this type is string: no check holds it, so it is left out",
      "test/fixtures/warnings/facet-on-container/api.yaml:25:42 - warning facet-of-another-kind: uniqueItems holds an array's items to a limit, and this type is string: no check holds it, so it is left out",
      "test/fixtures/warnings/facet-on-container/api.yaml:25:61 - warning facet-of-another-kind: multipleOf holds a number to a limit, and this type is string: no check holds it, so it is left out",
      "test/fixtures/warnings/facet-on-container/api.yaml:29:5 - warning union-open-untagged: open lets a tagged union take tags it does not list; this union is a list of members without a tag, so a value must match one of them: open is left out (write the union as a mapping of tag values with a discriminator to take members it does not list)",
    ]);
    const document = JSON.parse(readFileSync(join(out, "openapi.json"), "utf8"));
    const fields = document.components.schemas.Message.properties;
    expect(fields.tags).toEqual({ type: "array", items: { type: "string" } });
    expect(fields.labels).not.toHaveProperty("pattern");
    expect(fields.blocks).toEqual({
      type: "array",
      items: { type: "string" },
      maxItems: 100,
      minItems: 1,
    });
    expect(fields.headers).not.toHaveProperty("maxItems");
    expect(fields.amounts).not.toHaveProperty("minItems");
    const amount = document.components.schemas.Amount.properties;
    expect(amount.value).toEqual({ type: "number", minimum: 0 });
    expect(amount.exact).toEqual({ type: "boolean" });
  });
});

describe("an error body whose code field cannot hold the catalogue's codes (the Zoom trial)", () => {
  it("is a warning at the field, and the spec still generates", async () => {
    const out = tempDir("apigen-code-type-out-");
    try {
      const run = await runCli(["--spec", "test/fixtures/warnings/error-code-type", "--out", out]);
      expect(run.status).toBe(0);
      expect(run.stderr.split("\n").filter((line) => / - warning /.test(line))).toEqual([
        "test/fixtures/warnings/error-code-type/api.yaml:16:13 - warning error-code-type: the error body's code (ZoomError) is a string, but the codes of errors.codes are numbers: the client narrows codes the body never holds, and the stand-in answers bodies its own checks refuse; make them agree",
      ]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("an endpoint header parameter that is the API's idempotency header (the PayPal trial)", () => {
  it("is a warning at the parameter, and the spec still generates", async () => {
    const out = tempDir("apigen-idempotency-param-out-");
    try {
      const spec = "test/fixtures/warnings/idempotency-header-param";
      const run = await runCli(["--spec", spec, "--out", out]);
      expect(run.status).toBe(0);
      expect(run.stderr.split("\n").filter((line) => / - warning /.test(line))).toEqual([
        `${spec}/api.yaml:17:7 - warning idempotency-header-param: PayPal-Request-Id of orders.create is the API's idempotency header (PayPal-Request-Id), which a call's idempotencyKey option sends; a parameter of that name is written over the key: declare it once, in idempotency.header (the client's idempotencyKey then sends it)`,
      ]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("the CLI on a broken spec", () => {
  const cliCases = [
    "unresolved-ref",
    "yaml-unclosed-flow",
    "wrong-type-required",
    "duplicate-type",
    "path-param-undeclared",
  ];

  it.each(cliCases)(
    "%s: exit 1, diagnostic with a code frame, no stack trace, output folder untouched",
    async (name) => {
      const out = occupiedOutDir();
      const before = snapshotFolder(out);
      const run = await runCli(["--spec", `test/fixtures/broken/${name}`, "--out", out]);
      const [first] = await diagnosticsOf(`test/fixtures/broken/${name}`);

      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr.startsWith(`${first}\n`)).toBe(true);
      const lines = run.stderr.split("\n");
      const next = expectCodeFrame(lines, 0);
      expect(lines.slice(next)).toEqual(["", "1 error", ""]);
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(run.stderr).not.toMatch(/internal error/i);
      expect(snapshotFolder(out)).toEqual(before);
    },
  );

  it("pagination-misused: exit 1, one diagnostic per bad pagination, no stack trace", async () => {
    const out = occupiedOutDir();
    const run = await runCli(["--spec", "test/fixtures/broken/pagination-misused", "--out", out]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/\n17 errors\n$/);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr).not.toMatch(/internal error/i);
  });

  it("prints exactly this for an unknown type", async () => {
    const out = occupiedOutDir();
    const run = await runCli(["--spec", "test/fixtures/broken/unresolved-ref", "--out", out]);
    expect(run.stderr).toBe(
      [
        "test/fixtures/broken/unresolved-ref/api.yaml:12:14 - error unresolved-ref: unknown type Mony; did you mean Money?",
        "  11 |     fields:",
        "> 12 |       total: Mony",
        "     |              ^",
        "",
        "1 error",
        "",
      ].join("\n"),
    );
    expect(run.status).toBe(1);
  });

  it("prints every problem of a spec with several, each with its frame, in file and line order", async () => {
    const out = occupiedOutDir();
    const before = snapshotFolder(out);
    const run = await runCli(["--spec", "test/fixtures/broken/many-problems", "--out", out]);
    const expected = await diagnosticsOf("test/fixtures/broken/many-problems");
    expect(expected).toHaveLength(7);

    expect(run.status).toBe(1);
    const lines = run.stderr.split("\n");
    let i = 0;
    for (const diagnosticLine of expected) {
      expect(lines[i]).toBe(diagnosticLine);
      i = expectCodeFrame(lines, i);
      expect(lines[i]).toBe("");
      i++;
    }
    expect(lines.slice(i)).toEqual(["7 errors", ""]);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(snapshotFolder(out)).toEqual(before);
  });

  it("prints a diagnostic without a location (no api section) as one line", async () => {
    const out = occupiedOutDir();
    const before = snapshotFolder(out);
    const run = await runCli(["--spec", "test/fixtures/broken/api-missing", "--out", out]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "error api-missing: no spec file declares the `api` section (name, title, version)\n\n1 error\n",
    );
    expect(snapshotFolder(out)).toEqual(before);
  });

  it("gives a clear one-line error for a --spec folder that does not exist", async () => {
    const parent = tempDir("apigen-missing-out-");
    const out = join(parent, "out");
    const run = await runCli(["--spec", "test/fixtures/broken/does-not-exist", "--out", out]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    const problems = run.stderr.split("\n").filter((line) => /error/.test(line));
    expect(problems).toEqual([
      "error spec-dir-missing: spec folder test/fixtures/broken/does-not-exist does not exist (`apigen init` writes a new one; --spec DIR or apigen.config.json names another)",
      "1 error",
    ]);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr).not.toMatch(/internal error|ENOENT/i);
    expect(readdirSync(parent)).toEqual([]);
  });
});

describe("code frames", () => {
  const at = (line: number, col: number) => ({
    code: "yaml-syntax" as const,
    severity: "error" as const,
    message: "a problem",
    location: { file: "t.yaml", line, col },
  });
  const frame = (text: string, line: number, col: number) =>
    formatDiagnostic(at(line, col), new Map([["t.yaml", text]]))
      .split("\n")
      .slice(1);

  it("show the same lines whether the file's lines end in LF or CRLF; a lone CR stays inside its line", () => {
    const table: [text: string, line: number, col: number, want: string[]][] = [
      ["a: 1\nb: 2\nc: 3\n", 2, 4, ["  1 | a: 1", "> 2 | b: 2", "    |    ^"]],
      ["a: 1\r\nb: 2\r\nc: 3\r\n", 2, 4, ["  1 | a: 1", "> 2 | b: 2", "    |    ^"]],
      ["a: 1\r\nb: 2\nc: 3", 3, 1, ["  2 | b: 2", "> 3 | c: 3", "    | ^"]],
      ["a: 1\rb: 2\n", 1, 6, ["> 1 | a: 1\rb: 2", "    |      ^"]],
      ["only\r\n", 2, 1, ["  1 | only", "> 2 | ", "    | ^"]],
    ];
    for (const [text, line, col, want] of table)
      expect(frame(text, line, col), JSON.stringify(text)).toEqual(want);
  });
});
