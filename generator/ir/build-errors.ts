/**
 * The error model: the code catalogue, the meaning of each status, and the error
 * responses that apply across endpoints (to all, under a path prefix, or of a version).
 */
import type { BuildContext } from "./build-context.ts";
import type { Decl } from "./merge.ts";
import { camelCase } from "./casing.ts";
import type {
  ApiModel,
  ErrorCode,
  ErrorCodeValue,
  ErrorResponse,
  ErrorStatus,
  StatusInfo,
} from "./model.ts";

type Data = Record<string, unknown>;

/** A catalogue key as its code: digits are a number (`1005`), anything else a string (`card_declined`). */
export function codeOfKey(key: string): ErrorCodeValue {
  return /^\d+$/.test(key) ? Number(key) : key;
}

/**
 * The catalogue; a code without a `name` is called `code1005` or, for a string, `cardDeclined`.
 * A code without lower-case letters is read as words (PayPal's `INSTRUMENT_DECLINED`, Google's
 * `NOT_FOUND`: `instrumentDeclined`, `notFound`), not as one (`iNSTRUMENTDECLINED`).
 */
export function buildErrorCodes(decls: readonly Decl[], ctx: BuildContext): ErrorCode[] {
  return decls.map((d) => ({
    code: codeOfKey(d.name),
    name:
      typeof d.value.name === "string"
        ? d.value.name
        : /^\d+$/.test(d.name)
          ? `code${d.name}`
          : camelCase(/[a-z]/.test(d.name) ? d.name : d.name.toLowerCase()),
    meaning: String(d.value.meaning),
    docs: ctx.docs(d.file, d.path, d.value),
    location: d.file.locate(d.path, "key"),
  }));
}

export function buildStatuses(decls: readonly Decl[], ctx: BuildContext): StatusInfo[] {
  return decls.map((d) => {
    const notProcessed = d.value.notProcessed === true;
    if (notProcessed) checkNotProcessed(d, ctx);
    return {
      status: parseStatus(d.name),
      meaning: String(d.value.meaning),
      retry: d.value.retry === true,
      notProcessed,
      docs: ctx.docs(d.file, d.path, d.value),
    };
  });
}

/**
 * `notProcessed` is a promise about one status: a range (`5xx` holds 500, which may have done
 * the work) cannot make it, a success or redirect is never retried, and `retry: false` says
 * the opposite.
 */
function checkNotProcessed(d: Decl, ctx: BuildContext): void {
  const problem = !/^\d+$/.test(d.name)
    ? "a range cannot promise it for every status it stands for; mark each status the server promises it for"
    : Number(d.name) < 400
      ? "the client retries only error statuses (400 and above)"
      : d.value.retry === false
        ? "it contradicts retry: false (a status whose requests were not processed is retried for every method)"
        : undefined;
  if (problem)
    ctx.bag.report(
      "status-not-processed",
      { status: d.name, problem },
      d.file.locate([...d.path, "notProcessed"], "key"),
    );
}

/**
 * The client's retry data: numeric statuses the spec marks `retry: true` (added to the
 * runtime's defaults) and `retry: false` (taken out of them), and those marked
 * `notProcessed: true` (retried for every method). A `4xx`/`5xx` entry does not change them:
 * 5xx are retried by default.
 */
export function retryOf(decls: readonly Decl[]): ApiModel["errors"]["retry"] {
  const numeric = decls.filter((d) => /^\d+$/.test(d.name));
  const anyMethod = numeric.filter((d) => d.value.notProcessed === true && d.value.retry !== false);
  return {
    statuses: numeric.filter((d) => d.value.retry === true).map((d) => Number(d.name)),
    never: numeric.filter((d) => d.value.retry === false).map((d) => Number(d.name)),
    anyMethod: anyMethod.filter((d) => Number(d.name) >= 400).map((d) => Number(d.name)),
  };
}

function parseStatus(text: string): ErrorStatus {
  return /^\d+$/.test(text) ? Number(text) : (text as ErrorStatus);
}

/** One error response; `scope` says where it was declared to apply. */
export function buildErrorResponse(
  decl: Decl<Data>,
  ctx: BuildContext,
  knownCodes: ReadonlySet<ErrorCodeValue>,
  endpointLevel: boolean,
): ErrorResponse {
  const v = decl.value;
  const code = typeof v.code === "number" || typeof v.code === "string" ? v.code : undefined;
  if (code !== undefined && !knownCodes.has(code)) {
    ctx.bag.report("unknown-error-code", { code }, decl.file.locate([...decl.path, "code"]));
  }
  const scope: ErrorResponse["scope"] = endpointLevel
    ? { kind: "endpoint" }
    : typeof v.pathPrefix === "string"
      ? { kind: "pathPrefix", prefix: v.pathPrefix }
      : typeof v.version === "string"
        ? { kind: "version", version: v.version }
        : { kind: "all" };
  return {
    ...(v.status !== undefined ? { status: v.status as ErrorStatus } : {}),
    ...(code !== undefined ? { code } : {}),
    ...(typeof v.tag === "string" ? { tag: v.tag } : {}),
    scope,
    docs: ctx.docs(decl.file, decl.path, v),
    location: decl.file.locate(decl.path),
  };
}

/** Whether a scoped error response applies to an endpoint of this path and version. */
export function appliesTo(
  response: ErrorResponse,
  path: string,
  version: string | undefined,
): boolean {
  const scope = response.scope;
  switch (scope.kind) {
    case "all":
      return true;
    case "endpoint":
      return false;
    case "pathPrefix":
      return path.startsWith(scope.prefix);
    case "version":
      return scope.version === version;
    default: {
      const unhandled: never = scope;
      throw new Error(`unhandled scope ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Numeric statuses first, then 4xx, 5xx, then responses with no status; then by code. */
export function compareErrorResponses(a: ErrorResponse, b: ErrorResponse): number {
  const rank = (s: ErrorStatus | undefined) =>
    s === undefined ? 1000 : typeof s === "number" ? s : s === "4xx" ? 499.5 : 599.5;
  return (
    rank(a.status) - rank(b.status) ||
    compareCodes(a.code, b.code) ||
    (a.tag ?? "").localeCompare(b.tag ?? "")
  );
}

/** Absent first, then numbers in order, then strings in order. */
function compareCodes(a: ErrorCodeValue | undefined, b: ErrorCodeValue | undefined): number {
  const rank = (c: ErrorCodeValue | undefined) =>
    c === undefined ? 0 : typeof c === "number" ? 1 : 2;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a ?? "").localeCompare(String(b ?? ""));
}
