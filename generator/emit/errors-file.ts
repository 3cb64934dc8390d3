/**
 * Emits `src/errors.ts`: the API's error class, its error codes as named constants with
 * their meanings, and the client's other error classes re-exported from the runtime.
 */
import { arr, call, exprStatement, id, lit, obj, undef } from "./code/build.ts";
import type { ClassDeclaration, Expr, FileStatement, ObjectProperty } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { generatedRef, modules, runtimeType, runtimeValue, typeRef } from "./shared/symbols.ts";
import { generic, keyword, union } from "./shared/type-expr.ts";

/** `src/errors.ts` of the generated package. */
export function emitErrorsFile(ctx: EmitContext): EmittedFile {
  const { api, errors } = ctx.model;
  const codes = errors.codes;
  const streams = ctx.model.endpoints.some((e) => e.response.stream || e.streamResponse);
  const errorCode = generatedRef(modules.errors, "ErrorCode", false);
  const apiErrorCode = generatedRef(modules.errors, "ApiErrorCode", true);
  const byName: Expr = {
    kind: "as-const",
    expr: {
      kind: "object",
      expanded: true,
      properties: codes.map(
        (c): ObjectProperty => ({
          kind: "property",
          key: c.name,
          value: lit(c.code),
          docs: [c.meaning],
        }),
      ),
    },
  };
  const statements: FileStatement[] = [
    {
      statement: {
        kind: "export-from",
        module: "src/runtime/client/errors.ts",
        names: [
          ...["ClientError", "ClientOptionsError", "ConnectionError", "MissingCredentialError"],
          // Only a package with a paged endpoint has walks that can fail this way.
          ...(ctx.model.endpoints.some((e) => e.pagination) ? ["PaginationError"] : []),
          ...["RedirectError", "RequestValidationError", "ResponseParseError"],
          ...["ResponseTooLargeError", "TimeoutError", "UserAbortError"],
          // Only a package with a streaming endpoint throws it.
          ...(streams ? ["StreamParseError"] : []),
        ]
          .map((name) => ({ name, isType: false }))
          .concat(["ApiErrorEntry", "ApiErrorKind"].map((name) => ({ name, isType: true }))),
      },
    },
    // Only a client with endpoints can be given middleware, whose hooks' errors it is.
    ...(ctx.model.endpoints.length
      ? [
          {
            statement: {
              kind: "export-from" as const,
              module: "src/runtime/client/hooks.ts",
              names: [{ name: "MiddlewareError", isType: false }],
            },
            tight: true,
          },
        ]
      : []),
    // The client's response validation (`validateResponses: "throw"`) throws it.
    ...(ctx.outputs.client
      ? [
          {
            statement: {
              kind: "export-from",
              module: "src/runtime/client/response-validation.ts",
              names: [{ name: "ResponseValidationError", isType: false }],
            },
          } as const,
        ]
      : []),
    {
      statement: {
        kind: "class",
        name: api.errorClassName,
        isExported: true,
        docs: [
          `An error response of the ${api.title}: status, code or tag, message, body and headers.`,
        ],
        extends: runtimeValue("client/errors.ts", "ApiError"),
        ...errorFieldsCtor(errors.codeField, errors.messageField),
        properties: [
          // `instanceof` across the package's CommonJS and ES module builds (runtime/client/brand.ts)
          {
            name: "~brand",
            isStatic: true,
            hasOverrideKeyword: true,
            isReadonly: true,
            init: lit(`${api.packageName}:${api.errorClassName}`),
          },
          { name: "name", hasOverrideKeyword: true, init: lit(api.errorClassName) },
          {
            name: "code",
            isDeclare: true,
            isReadonly: true,
            docs: ["Code of the first entry of the error body."],
            type: union([apiErrorCode, keyword("undefined")]),
          },
          {
            name: "errors",
            isDeclare: true,
            isReadonly: true,
            docs: ["Every entry of the error body, each code typed as `code` is."],
            type: generic("Array", {
              kind: "intersection",
              types: [
                runtimeType("client/errors.ts", "ApiErrorEntry"),
                {
                  kind: "object-type",
                  inline: true,
                  members: [
                    {
                      kind: "property-signature",
                      name: "code",
                      hasQuestionToken: true,
                      type: apiErrorCode,
                    },
                  ],
                },
              ],
            }),
          },
          ...bodyProperty(errors.body),
        ],
      },
    },
    {
      statement: {
        kind: "type-alias",
        name: "ApiErrorCode",
        isExported: true,
        docs: [
          "An error code: one of {@link ErrorCode}, or one the spec does not list (a number or a string). Comparing `code` with a known one (`===`, `case`) narrows it to that code.",
        ],
        // Plain `number` and `string`, not `(string & {})`: TypeScript narrows a plain
        // primitive to the literal it is compared with, but keeps `string & {}` beside it.
        type: union([{ ...errorCode, isType: true }, keyword("number"), keyword("string")]),
      },
    },
    {
      statement: {
        kind: "variable",
        declarationKind: "const",
        name: "ErrorCode",
        isExported: true,
        docs: [
          `Error codes of the ${api.title}, by name. Read \`error.code\` (or \`error.tag\`), not only the status.`,
        ],
        init: byName,
      },
    },
    {
      statement: {
        kind: "type-alias",
        name: "ErrorCode",
        isExported: true,
        type: {
          kind: "indexed",
          object: { kind: "paren-type", type: { kind: "typeof", target: errorCode } },
          index: { kind: "keyof", type: { kind: "typeof", target: errorCode } },
        },
      },
    },
    {
      statement: {
        kind: "variable",
        declarationKind: "const",
        name: "errorCodeMeanings",
        isExported: true,
        docs: ["What each known error code means."],
        type: generic(
          "Readonly",
          generic("Record", { ...errorCode, isType: true }, keyword("string")),
        ),
        init: obj(
          codes.map((c) => [c.code, lit(c.meaning)] as const),
          { expanded: true },
        ),
      },
    },
  ];
  const contents = printSourceFile({ path: modules.errors, banner: ctx.banner, statements });
  return { path: modules.errors, contents };
}

/**
 * `body` typed as the API's error body (`errors.body`), or as the text the client keeps when
 * the body is not JSON, is cut at `maxErrorBodyBytes` or nests too deep.
 */
function bodyProperty(name: string | undefined) {
  if (name === undefined) return [];
  return [
    {
      name: "body",
      isDeclare: true,
      isReadonly: true,
      docs: [`The error body as {@link ${name}}, or its text when it is not JSON or was cut.`],
      type: union([typeRef(name), keyword("string")]),
    },
  ];
}

/**
 * The error class's constructor where the spec places the code or message of its error body
 * (`errors.codeField`, `messageField`): the details read there (runtime/client/response.ts
 * `withErrorFields`), so a package without them leaves that code out.
 */
function errorFieldsCtor(
  codeField: readonly string[] | undefined,
  messageField: readonly string[] | undefined,
): Pick<ClassDeclaration, "ctor"> {
  if (!codeField && !messageField) return {};
  const path = (p: readonly string[] | undefined) => (p ? arr(p.map(lit)) : undef);
  const details = id("details");
  const read = call(
    runtimeValue("client/response.ts", "withErrorFields"),
    details,
    path(codeField),
    ...(messageField ? [path(messageField)] : []),
  );
  return {
    ctor: {
      params: [{ name: "details", type: runtimeType("client/errors.ts", "ApiErrorDetails") }],
      body: [exprStatement(call(id("super"), read))],
    },
  };
}
