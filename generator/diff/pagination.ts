/**
 * `--diff` of paged lists: an endpoint that starts paging (minor: its call still gives the
 * first page, and now also walks), one that stops (breaking for callers: their `for await`
 * and `.pages()` no longer compile), the type of an item (compared as a type callers read),
 * and how the walk finds the next page (minor: the generated client follows the new rule,
 * callers' code is unchanged). The change list and the type comparison come from
 * compare.ts, passed in, so neither file imports the other.
 */
import type { ApiModel, Pagination } from "../ir/model.ts";
import type { WebhookChanges } from "./webhooks.ts";

/** The rule of a walk as text, its keys in spec order: what a reader compares. */
function ruleText(p: Pagination): string {
  const { items, itemType: _type, location: _at, ...rule } = p;
  const parts = Object.entries({ ...rule, items })
    .filter(([, value]) => value !== undefined)
    .map(
      ([key, value]) =>
        `${key} ${Array.isArray(value) ? value.join(".") || "(body)" : String(value)}`,
    );
  return parts.join(", ");
}

/** Every paging change of the endpoints both models have. */
export function diffPagination(out: WebhookChanges, before: ApiModel, after: ApiModel): void {
  for (const e of before.endpoints) {
    const next = after.endpoints.find((n) => n.id === e.id);
    if (!next) continue;
    const subject = `endpoints.${e.id}.pagination`;
    const [old, now] = [e.pagination, next.pagination];
    if (!old && now) out.add(subject, `pages (${now.style})`, "minor");
    else if (old && !now) out.add(subject, "no longer pages", "breaking", ["callers"]);
    else if (old && now) {
      out.payload(`${subject}.items`, old.itemType, now.itemType);
      const [was, is] = [ruleText(old), ruleText(now)];
      if (was !== is) out.add(subject, `${was} -> ${is}`, "minor");
    }
  }
}
