/**
 * `--diff` of streamed responses, beside what compare.ts says of every response (its kind
 * and media type): the named events as a union callers read (an event added to a closed
 * stream breaks their exhaustive switches, added to an open one does not; a stream that
 * becomes open or closed breaks them), each event's data type, the terminator, the error
 * item (an item now thrown as the API's error, or yielded again: minor), and the flag that
 * switches to the stream (its overloads). The change list and the type comparison come
 * from compare.ts, passed in, so neither file imports the other.
 */
import type { ApiModel, Endpoint, EndpointResponse, StreamError } from "../ir/model.ts";
import type { WebhookChanges } from "./webhooks.ts";

/** The streamed response of an endpoint: its `streamResponse`, or its response when that streams. */
const streamed = (e: Endpoint): EndpointResponse | undefined =>
  e.streamResponse ?? (e.response.stream ? e.response : undefined);

/** How a stream's error item is told, in words: `event error`, `field error` or `none`. */
const errorItemOf = (error: StreamError | undefined): string =>
  !error ? "none" : error.event !== undefined ? `event ${error.event}` : `field ${error.field}`;

/** The stream changes of one endpoint present in both models. */
function diffStream(out: WebhookChanges, subject: string, e: Endpoint, next: Endpoint): void {
  const [flag, nextFlag] = [e.streamResponse?.flag, next.streamResponse?.flag];
  if (flag !== nextFlag)
    out.add(
      `${subject}.streamResponse`,
      `stream flag ${flag ?? "none"} -> ${nextFlag ?? "none"}`,
      "minor",
      flag !== undefined ? ["callers"] : [],
    );
  const [old, now] = [streamed(e), streamed(next)];
  if (!old?.stream || !now?.stream || old.kind !== now.kind) return;
  const at = `${subject}.${next.streamResponse ? "streamResponse" : "response"}`;
  if (e.streamResponse && next.streamResponse && old.body && now.body)
    out.payload(at, old.body, now.body);
  const { stream: before } = old;
  const { stream: after } = now;
  if ((before.terminator ?? "none") !== (after.terminator ?? "none"))
    out.add(
      at,
      `terminator ${before.terminator ?? "none"} -> ${after.terminator ?? "none"}`,
      "minor",
    );
  const [wasError, isError] = [errorItemOf(before.error), errorItemOf(after.error)];
  if (wasError !== isError) out.add(at, `error item ${wasError} -> ${isError}`, "minor");
  if (!before.events.length || !after.events.length) return;
  if (before.open !== after.open)
    out.add(at, `stream became ${after.open ? "open" : "closed"}`, "minor", ["callers"]);
  for (const event of after.events) {
    const was = before.events.find((b) => b.name === event.name);
    if (was) out.payload(`${at}.events.${event.name}`, was.type, event.type);
    else
      out.add(`${at}.events.${event.name}`, "event added", "minor", after.open ? [] : ["callers"]);
  }
  for (const event of before.events)
    if (!after.events.some((a) => a.name === event.name))
      out.add(`${at}.events.${event.name}`, "event removed", "minor");
}

/** Every stream change of the endpoints both models have. */
export function diffStreams(out: WebhookChanges, before: ApiModel, after: ApiModel): void {
  for (const e of before.endpoints) {
    const next = after.endpoints.find((n) => n.id === e.id);
    if (next) diffStream(out, `endpoints.${e.id}`, e, next);
  }
}
