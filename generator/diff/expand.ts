/**
 * `--diff` of expand lists (`Endpoint.expand`): an endpoint that starts taking one (minor:
 * results of calls that list nothing become ids, which their declared type already allowed
 * for, and the list is new), one that stops (breaking for callers: results are an id or an
 * object again, so reads of an expanded object no longer compile), a path the answer no
 * longer has (breaking: a call that lists it does not compile) or a new one (minor), and the
 * list moving to another parameter or field (breaking). The change list comes from
 * compare.ts, passed in, so neither file imports the other.
 */
import type { ApiModel } from "../ir/model.ts";
import type { WebhookChanges } from "./webhooks.ts";

/** Every expand change of the endpoints both models have. */
export function diffExpand(
  out: Pick<WebhookChanges, "add">,
  before: ApiModel,
  after: ApiModel,
): void {
  for (const e of before.endpoints) {
    const next = after.endpoints.find((n) => n.id === e.id);
    if (!next) continue;
    const subject = `endpoints.${e.id}.expand`;
    const [old, now] = [e.expand, next.expand];
    if (!old && now) out.add(subject, `expandable by ${now.in} ${now.name}`, "minor");
    else if (old && !now) out.add(subject, "no longer expandable", "breaking", ["callers"]);
    else if (old && now) {
      if (old.name !== now.name || old.in !== now.in)
        out.add(subject, `${old.in} ${old.name} -> ${now.in} ${now.name}`, "breaking", ["callers"]);
      const removed = old.paths.filter((p) => !now.paths.includes(p));
      const added = now.paths.filter((p) => !old.paths.includes(p));
      if (removed.length)
        out.add(
          subject,
          `path${removed.length > 1 ? "s" : ""} ${removed.join(", ")} removed`,
          "breaking",
          ["callers"],
        );
      if (added.length)
        out.add(subject, `path${added.length > 1 ? "s" : ""} ${added.join(", ")} added`, "minor");
    }
  }
}
