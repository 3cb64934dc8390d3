/**
 * Emits `src/errors.ts`: the API's error class, its error codes as named constants with
 * their meanings, and the client's other error classes re-exported from the runtime.
 */
import type { EmitContext, EmittedFile } from "./context.ts";

/** `src/errors.ts` of the generated package. */
export function emitErrorsFile(ctx: EmitContext): EmittedFile {
  const { api, errors } = ctx.model;
  const codes = errors.codes;
  const lines = [
    `// ${ctx.banner}`,
    `import { ApiError } from "./runtime/client/errors.js";`,
    "",
    `export {`,
    `  ClientError,`,
    `  ClientOptionsError,`,
    `  ConnectionError,`,
    `  MissingCredentialError,`,
    `  RedirectError,`,
    `  RequestValidationError,`,
    `  ResponseParseError,`,
    `  ResponseTooLargeError,`,
    `  TimeoutError,`,
    `  UserAbortError,`,
    `  type ApiErrorEntry,`,
    `  type ApiErrorKind,`,
    `} from "./runtime/client/errors.js";`,
    "",
    `/** An error response of the ${api.title}: status, code or tag, message, body and headers. */`,
    `export class ${api.errorClassName} extends ApiError {`,
    `  override name = ${JSON.stringify(api.errorClassName)};`,
    `}`,
    "",
    `/** Error codes of the ${api.title}, by name. Read \`error.code\` (or \`error.tag\`), not only the status. */`,
    `export const ErrorCode = {`,
    ...codes.flatMap((c) => [
      `  /** ${c.meaning.replace(/\*\//g, "*\\/")} */`,
      `  ${c.name}: ${c.code},`,
    ]),
    `} as const;`,
    "",
    `export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];`,
    "",
    `/** What each known error code means. */`,
    `export const errorCodeMeanings: Readonly<Record<ErrorCode, string>> = {`,
    ...codes.map((c) => `  ${c.code}: ${JSON.stringify(c.meaning)},`),
    `};`,
    "",
  ];
  return { path: "src/errors.ts", contents: lines.join("\n"), parser: "typescript" };
}
