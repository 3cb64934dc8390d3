/**
 * `--diff` of how inbound calls are signed: each `in: signature` credential's header, scheme
 * (its prefix and what it signs), and where its calls carry their signing time and delivery id. Receivers verify
 * exactly this, so any change breaks implementers: a router generated from the new spec refuses
 * calls signed the old way (and an old router the new ones), and a `replay` option given for a
 * place that is gone is refused at creation. The change list comes from compare.ts, passed in,
 * so neither file imports the other.
 */
import type { ApiModel, Credential } from "../ir/model.ts";
import type { WebhookChanges } from "./webhooks.ts";

/** A place as text: `header webhook-id`, `signature t`, `body id`, `header X-Time (date-time)`, or `none`. */
const placeText = (place: { in: string; name: string; format?: string } | undefined): string =>
  place ? `${place.in} ${place.name}${place.format ? ` (${place.format})` : ""}` : "none";

/** A scheme as text: `hmac-sha256-hex (prefix sha256=)`, `hmac-sha256-hex (prefix v0=, signs v0:{timestamp}:{body})`, `timestamped`. */
function schemeText(credential: Credential): string {
  const scheme = credential.signing;
  if (!scheme) return "none";
  const details = [
    "prefix" in scheme && scheme.prefix !== undefined ? `prefix ${scheme.prefix}` : undefined,
    "signs" in scheme && scheme.signs !== undefined ? `signs ${scheme.signs}` : undefined,
  ].filter((d) => d !== undefined);
  return details.length > 0 ? `${scheme.name} (${details.join(", ")})` : scheme.name;
}

/** Every change of the signature credentials the inbound side uses, from `before` to `after`. */
export function diffSigning(out: WebhookChanges, before: ApiModel, after: ApiModel): void {
  const signatures = (m: ApiModel) => m.credentials.filter((c) => c.placement === "signature");
  for (const old of signatures(before)) {
    const next = signatures(after).find((c) => c.id === old.id);
    if (!next) continue; // its callbacks and webhooks name it: their own diffs and errors say so
    const subject = `credentials.${old.id}`;
    const changed = (what: string, from: string, to: string) => {
      if (from !== to)
        out.add(subject, `${what} ${from} -> ${to} (receivers verify the new form)`, "minor", [
          "implementers",
        ]);
    };
    changed("signature header", old.header ?? "none", next.header ?? "none");
    changed("signature scheme", schemeText(old), schemeText(next));
    changed("signing time", placeText(old.timestamp), placeText(next.timestamp));
    changed("delivery id", placeText(old.deliveryId), placeText(next.deliveryId));
  }
}
