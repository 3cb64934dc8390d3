/**
 * An endpoint header parameter that is the API's idempotency header (`idempotency.header`, or
 * the client's default `Idempotency-Key`): the client sends a call's `idempotencyKey` in that
 * header, and a parameter of the same name is written over it, so the key is dropped without
 * a word (the PayPal trial declared `PayPal-Request-Id` both ways). A warning at the parameter.
 */
import type { BuildContext } from "./build-context.ts";
import type { Endpoint } from "./model.ts";

/** The header a call's `idempotencyKey` travels in when the spec names none (runtime/client/core.ts). */
const defaultIdempotencyHeader = "Idempotency-Key";

export function warnIdempotencyParams(
  ctx: BuildContext,
  idempotency: { supported: boolean; header?: string },
  endpoints: readonly Endpoint[],
): void {
  if (!idempotency.supported) return;
  const header = idempotency.header ?? defaultIdempotencyHeader;
  for (const endpoint of endpoints)
    for (const param of endpoint.params)
      if (
        param.placement === "header" &&
        (param.wireName ?? param.name).toLowerCase() === header.toLowerCase()
      )
        ctx.bag.report(
          "idempotency-header-param",
          { name: param.name, header, endpoint: endpoint.id },
          param.location,
        );
}
