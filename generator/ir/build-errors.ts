/**
 * The error model: the code catalogue, the meaning of each status, and the error
 * responses that apply across endpoints (to all, under a path prefix, or of a version).
 */
import type { BuildContext } from "./build-context.ts";
import type { Decl } from "./merge.ts";
import type { ErrorCode, ErrorResponse, ErrorStatus, StatusInfo } from "./model.ts";

type Data = Record<string, unknown>;

export function buildErrorCodes(decls: readonly Decl[], ctx: BuildContext): ErrorCode[] {
  return decls.map((d) => ({
    code: Number(d.name),
    name: typeof d.value.name === "string" ? d.value.name : `code${d.name}`,
    meaning: String(d.value.meaning),
    docs: ctx.docs(d.file, d.path, d.value),
    location: d.file.locate(d.path, "key"),
  }));
}

export function buildStatuses(decls: readonly Decl[], ctx: BuildContext): StatusInfo[] {
  return decls.map((d) => ({
    status: parseStatus(d.name),
    meaning: String(d.value.meaning),
    retry: d.value.retry === true,
    docs: ctx.docs(d.file, d.path, d.value),
  }));
}

function parseStatus(text: string): ErrorStatus {
  return /^\d+$/.test(text) ? Number(text) : (text as ErrorStatus);
}

/** One error response; `scope` says where it was declared to apply. */
export function buildErrorResponse(
  decl: Decl<Data>,
  ctx: BuildContext,
  knownCodes: ReadonlySet<number>,
  endpointLevel: boolean,
): ErrorResponse {
  const v = decl.value;
  if (typeof v.code === "number" && !knownCodes.has(v.code)) {
    ctx.bag.report(
      "unknown-error-code",
      { code: v.code },
      decl.file.locate([...decl.path, "code"]),
    );
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
    ...(typeof v.code === "number" ? { code: v.code } : {}),
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
    (a.code ?? -1) - (b.code ?? -1) ||
    (a.tag ?? "").localeCompare(b.tag ?? "")
  );
}
