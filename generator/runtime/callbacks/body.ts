/**
 * The router's JSON answers, from a handler's result without a promise where it gives none.
 * Reading bodies (size and time limits, strict UTF-8 JSON) is shared with the stand-in, in
 * ../http/body.ts.
 */
import type { OutboundResponse } from "./types.js";

/** Response headers of a JSON answer; a fresh object per answer (an adapter may add to it), without a spread. */
function jsonHeaders(extra?: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  };
  return extra === undefined ? headers : Object.assign(headers, extra);
}

/** A JSON response. */
export function json(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): OutboundResponse {
  return { status, headers: jsonHeaders(headers), body: JSON.stringify(body) };
}

/** A handler's answer with `field` set to the event name, first; anything but a plain object as it is. */
export function withEvent(result: unknown, field: string, event: string): unknown {
  const plain = typeof result === "object" && result !== null && !Array.isArray(result);
  return plain ? { [field]: event, ...result, [field]: event } : result;
}

/** Whether `await` would wait for the value: a promise or any other thenable. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Runs a handler and turns what it returns into the answer, synchronously when it does not
 * return a promise (`await` would wait for any thenable, so this does too); whatever it
 * throws or rejects with, or `answer` throws on, goes to `failed`.
 */
export function runHandler(
  call: () => unknown,
  answer: (result: unknown) => OutboundResponse,
  failed: (error: unknown) => OutboundResponse,
): OutboundResponse | Promise<OutboundResponse> {
  const settle = (result: unknown): OutboundResponse => {
    try {
      return answer(result);
    } catch (error) {
      return failed(error);
    }
  };
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    return failed(error);
  }
  return isThenable(result) ? Promise.resolve(result).then(settle, failed) : settle(result);
}

/**
 * The value at a field path of a parsed body (`type`, or `event.event_type` a level down:
 * PagerDuty's envelope), read as own data of plain objects only (never an inherited member);
 * `undefined` where any step is missing.
 */
export function fieldAt(body: unknown, path: string): unknown {
  let value = body;
  for (const name of path.split(".")) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    if (!Object.hasOwn(value, name)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}
