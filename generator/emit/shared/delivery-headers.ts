/**
 * The declared delivery headers of webhooks (`webhooks.headers`) in `src/callbacks.ts`: the
 * `WebhookDeliveryHeaders` interface handlers get as `ctx.deliveryHeaders`, and the data the
 * router reads them with (each header's name, what its text becomes, the validator).
 */
import type { Webhooks } from "../../ir/model.ts";
import { arr, lit, obj } from "../code/build.ts";
import type { Expr, Statement } from "../code/nodes.ts";
import { typeDocLines } from "./jsdoc.ts";
import { typeExpr } from "./type-expr.ts";
import { validatorExpr } from "./validator-expr.ts";
import { deliveryHeadersTypeRef } from "./webhook-docs.ts";

/** `WebhookDeliveryHeaders`: the delivery headers the spec declares, by name, as handlers get them. */
export function deliveryHeadersInterface(webhooks: Webhooks): Statement | undefined {
  const headers = webhooks.headers;
  if (headers?.kind !== "object") return undefined;
  return {
    kind: "interface",
    name: deliveryHeadersTypeRef.name,
    isExported: true,
    docs: [
      "The headers of a webhook delivery the spec declares, validated and read as their types (`ctx.deliveryHeaders`);",
      "one the spec does not mark required may be absent.",
    ],
    members: headers.fields.map((field) => ({
      kind: "property-signature",
      name: field.name,
      hasQuestionToken: !field.required,
      isReadonly: true,
      type: typeExpr(field.type),
      docs: typeDocLines(field.type),
    })),
  };
}

/** `{ names: [{ name: "X-GitHub-Hook-ID", as: "number" }], check: ... }`: how the runtime reads the declared headers. */
export function deliveryHeadersExpr(webhooks: Webhooks): Expr | undefined {
  if (!webhooks.headers || !webhooks.headerValues) return undefined;
  const names = webhooks.headerValues.map((h) =>
    obj([
      ["name", lit(h.name)],
      ["as", h.as === undefined ? undefined : lit(h.as)],
    ]),
  );
  return obj(
    [
      ["names", arr(names)],
      ["check", validatorExpr(webhooks.headers)],
    ],
    { expanded: true },
  );
}
