/**
 * `--diff` of what the client retries: a status that becomes retried for every method
 * (`notProcessed`) or stops being so, or whose `retry` changes. None breaks a caller's code;
 * each changes what a call does on that status, so each is minor. The change list comes from
 * compare.ts, passed in, so neither file imports the other.
 */
import type { ApiModel, StatusInfo } from "../ir/model.ts";
import type { WebhookChanges } from "./webhooks.ts";

/** Where the changes go (compare.ts's change list). */
type Changes = Pick<WebhookChanges, "add">;

/** How the client treats a status, in words: the key of a change. */
function retryOf(info: StatusInfo | undefined): string {
  if (info?.notProcessed) return "retried for every method (notProcessed)";
  if (info?.retry) return "retried (a POST or PATCH with an idempotency key only)";
  return "the client's default";
}

/** Every change of how the client retries a status the spec lists, from `before` to `after`. */
export function diffStatuses(out: Changes, before: ApiModel, after: ApiModel): void {
  const key = (s: StatusInfo) => String(s.status);
  const old = new Map(before.errors.statuses.map((s) => [key(s), s] as const));
  const now = new Map(after.errors.statuses.map((s) => [key(s), s] as const));
  for (const status of [...new Set([...old.keys(), ...now.keys()])].sort()) {
    const [was, is] = [retryOf(old.get(status)), retryOf(now.get(status))];
    if (was !== is) out.add(`errors.statuses.${status}`, `${was} -> ${is}`, "minor");
  }
}
