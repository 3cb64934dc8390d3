/**
 * Root extensions of the document for the parts of the model that OpenAPI has no object
 * for, so that they (and their gap notes) reach every tool: `x-versioning`, `x-errors`
 * (the code catalogue, the meaning of each status and the API-wide error responses),
 * `x-idempotency`, `x-limits`,
 * `x-lifecycles` and `x-credentials` (credentials sent nowhere).
 */
import type { ApiModel } from "../../ir/model.ts";
import { entryPathText } from "../../ir/field-path.ts";
import { notesOf, obj, type JsonObject } from "./json.ts";
import { apiErrorEntries } from "./errors.ts";
import { otherCredentials } from "./security.ts";

function versioningOf(model: ApiModel): JsonObject | undefined {
  const v = model.versioning;
  if (!v.versions.length && !v.docs.notes.length) return undefined;
  return obj({
    scheme: v.scheme,
    header: v.header,
    current: v.current,
    description: v.docs.description?.trim(),
    versions: v.versions.map((ver) =>
      obj({
        name: ver.name,
        prefix: ver.prefix,
        errorBody: ver.errorBody,
        invalidInputStatus: ver.invalidInputStatus,
        description: ver.docs.description?.trim(),
        "x-undocumented": notesOf(ver.docs),
      }),
    ),
    rules: v.rules.length ? [...v.rules] : undefined,
    "x-undocumented": notesOf(v.docs),
  });
}

function errorsOf(model: ApiModel): JsonObject | undefined {
  const e = model.errors;
  if (
    !e.codes.length &&
    !e.statuses.length &&
    !e.docs.notes.length &&
    !e.docs.description &&
    e.body === undefined &&
    !e.codeField &&
    !e.messageField
  )
    return undefined;
  return obj({
    description: e.docs.description?.trim(),
    body: e.body,
    codeField: e.codeField && entryPathText(e.codeField),
    messageField: e.messageField && entryPathText(e.messageField),
    codes: e.codes.map((c) =>
      obj({ code: c.code, name: c.name, meaning: c.meaning, "x-undocumented": notesOf(c.docs) }),
    ),
    statuses: e.statuses.map((s) =>
      obj({
        status: typeof s.status === "number" ? s.status : s.status.toUpperCase(),
        meaning: s.meaning,
        // as the spec says it: true, or false where it turns a default retry off; a status the
        // spec leaves alone is left out (the client still retries 408, 429 and 5xx by default)
        retry: s.retry
          ? true
          : typeof s.status === "number" && e.retry.never.includes(s.status)
            ? false
            : undefined,
        notProcessed: s.notProcessed ? true : undefined,
        "x-undocumented": notesOf(s.docs),
      }),
    ),
    responses: apiErrorEntries(model),
    "x-undocumented": notesOf(e.docs),
  });
}

function idempotencyOf(model: ApiModel): JsonObject | undefined {
  const i = model.idempotency;
  if (!i.supported && !i.header && !i.docs.notes.length) return undefined;
  return obj({
    supported: i.supported,
    header: i.header,
    description: i.docs.description?.trim(),
    "x-undocumented": notesOf(i.docs),
  });
}

function limitsOf(model: ApiModel): JsonObject[] | undefined {
  if (!model.limits.length) return undefined;
  return model.limits.map((l) =>
    obj({
      name: l.name,
      status: l.status,
      description: l.docs.description?.trim(),
      "x-undocumented": notesOf(l.docs),
    }),
  );
}

function lifecyclesOf(model: ApiModel): JsonObject[] | undefined {
  if (!model.lifecycles.length) return undefined;
  return model.lifecycles.map((l) =>
    obj({
      name: l.name,
      description: l.docs.description?.trim(),
      states: [...l.states],
      transitions: l.transitions.map((t) =>
        obj({
          from: [...t.from],
          to: t.to,
          trigger: t.trigger,
          condition: t.condition,
          effect: t.effect,
          "x-undocumented": notesOf(t.docs),
        }),
      ),
      "x-undocumented": notesOf(l.docs),
    }),
  );
}

/** The root extensions, each left out when the model has nothing for it. */
export function modelExtensions(
  model: ApiModel,
): Record<string, JsonObject | JsonObject[] | undefined> {
  return {
    "x-versioning": versioningOf(model),
    "x-errors": errorsOf(model),
    "x-idempotency": idempotencyOf(model),
    "x-limits": limitsOf(model),
    "x-lifecycles": lifecyclesOf(model),
    "x-credentials": otherCredentials(model),
  };
}
