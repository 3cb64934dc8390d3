/**
 * The signature scheme of an `in: signature` credential (`scheme:`, with `prefix:` and
 * `signs:` for the HMAC schemes), and the places its calls carry their signing time and
 * delivery id: a scheme that signs them implies where they are (`timestamped`: the `t=` item
 * of the signature header; `standard-webhooks`: the `webhook-timestamp` and `webhook-id`
 * headers), so the router's replay guard works without more declaration; a declared place
 * may rename them but not move them elsewhere. On other credentials `scheme` is the
 * authorization scheme (`Bearer`) and `prefix` and `signs` have no meaning.
 */
import { suggestion } from "../diagnostics/diagnostic.ts";
import { signedPieces } from "../runtime/callbacks/schemes.ts";
import type { BuildContext } from "./build-context.ts";
import type { Decl } from "./merge.ts";
import type {
  Credential,
  CredentialPlacement,
  DeliveryIdPlace,
  SignatureScheme,
  SignedTimestamp,
} from "./model.ts";

/** The schemes a spec can name, the default first. */
export const signatureSchemeNames = [
  "hmac-sha256-base64",
  "hmac-sha256-hex",
  "timestamped",
  "standard-webhooks",
  "token",
] as const;

/** The scheme of a signature credential that names none. */
export const defaultSignatureScheme: SignatureScheme = { name: "hmac-sha256-base64" };

/** Whether a scheme is the default one as it is (no prefix, no template): what outputs leave unsaid. */
export const isDefaultSignatureScheme = (scheme: SignatureScheme): boolean =>
  scheme.name === defaultSignatureScheme.name && Object.keys(scheme).length === 1;

type Places = Pick<Credential, "timestamp" | "deliveryId">;

/** A place the scheme fixes: the declared one where it is where the scheme reads it, else the implied one. */
function placed<P extends SignedTimestamp | DeliveryIdPlace>(
  decl: Decl,
  ctx: BuildContext,
  scheme: string,
  key: "timestamp" | "deliveryId",
  declared: P | undefined,
  implied: P,
): P {
  if (declared === undefined) return implied;
  if (declared.in === implied.in) return declared;
  ctx.bag.report(
    "signature-scheme-place",
    {
      scheme,
      what: key === "timestamp" ? "the signing time" : "the delivery id",
      expected: implied.in === "header" ? "a header" : "an item of the signature header",
      key,
      place: implied.in,
      implied: `${implied.in === "header" ? "the header" : "the item"} ${implied.name}`,
    },
    decl.file.locate([...decl.path, key, "in"]),
  );
  return implied;
}

/** The text of a string key of the credential, if it has one. */
const stringKey = (decl: Decl, key: string): string | undefined =>
  typeof decl.value[key] === "string" ? (decl.value[key] as string) : undefined;

/**
 * The HMAC scheme's `signs` template, checked: a readable template whose `{timestamp}` and
 * `{id}` name headers the credential declares (their header names go with the scheme, for
 * the router and the signer); nothing when the credential has none or it is wrong.
 */
function signsOf(
  decl: Decl,
  ctx: BuildContext,
  places: Places,
): { signs: string; timestamp?: string; id?: string; timestampFormat?: "date-time" } | undefined {
  const signs = stringKey(decl, "signs");
  if (signs === undefined) return undefined;
  const at = decl.file.locate([...decl.path, "signs"]);
  const pieces = signedPieces(signs);
  if ("problem" in pieces) {
    ctx.bag.report(
      "signature-signs-invalid",
      { value: JSON.stringify(signs), name: decl.name, problem: pieces.problem },
      at,
    );
    return undefined;
  }
  const headers: { timestamp?: string; id?: string; timestampFormat?: "date-time" } = {};
  for (const piece of pieces) {
    if (!("slot" in piece) || piece.slot === "body") continue;
    const key = piece.slot === "timestamp" ? "timestamp" : "deliveryId";
    const place = places[key];
    if (place?.in === "header") {
      headers[piece.slot] = place.name;
      if (piece.slot === "timestamp" && places.timestamp?.format === "date-time")
        headers.timestampFormat = "date-time";
    } else
      ctx.bag.report(
        "signature-signs-place",
        {
          name: decl.name,
          slot: `{${piece.slot}}`,
          key,
          why:
            place === undefined
              ? `the credential declares no ${key}`
              : `its ${key} is \`in: ${place.in}\``,
        },
        at,
      );
  }
  return { signs, ...headers };
}

/**
 * The scheme of a credential and its places, declared or implied (`places`: what the
 * credential declares, already checked); nothing more for a credential that is not a
 * signature, where a `prefix` or `signs` is an error.
 */
export function signingOf(
  decl: Decl,
  ctx: BuildContext,
  placement: CredentialPlacement,
  places: Places,
): Places & { signing?: SignatureScheme } {
  const v = decl.value;
  const prefix = stringKey(decl, "prefix");
  const misplaced = (why: string) => {
    if (prefix !== undefined)
      ctx.bag.report(
        "signature-prefix-misplaced",
        { name: decl.name, why },
        decl.file.locate([...decl.path, "prefix"], "key"),
      );
    if (stringKey(decl, "signs") !== undefined)
      ctx.bag.report(
        "signature-signs-misplaced",
        { name: decl.name, why },
        decl.file.locate([...decl.path, "signs"], "key"),
      );
  };
  if (placement !== "signature") {
    misplaced(`is \`in: ${placement}\``);
    return places;
  }
  const name = typeof v.scheme === "string" ? v.scheme : defaultSignatureScheme.name;
  const known: readonly string[] = signatureSchemeNames;
  if (!known.includes(name)) {
    ctx.bag.report(
      "signature-scheme-unknown",
      {
        value: JSON.stringify(name),
        hint: suggestion(name, known),
        known: signatureSchemeNames.join(", "),
      },
      decl.file.locate([...decl.path, "scheme"]),
    );
    return { ...places, signing: defaultSignatureScheme };
  }
  const scheme = name as (typeof signatureSchemeNames)[number];
  if (scheme !== "hmac-sha256-base64" && scheme !== "hmac-sha256-hex")
    misplaced(`has the scheme ${scheme}`);
  switch (scheme) {
    case "hmac-sha256-base64":
    case "hmac-sha256-hex": {
      if (places.timestamp?.in === "signature")
        ctx.bag.report(
          "signature-timestamp-item",
          {
            name: decl.name,
            item: places.timestamp.name,
            header: typeof v.header === "string" ? v.header : "the signature header",
            scheme,
          },
          decl.file.locate([...decl.path, "timestamp", "in"]),
        );
      const signs = signsOf(decl, ctx, places);
      return {
        ...places,
        signing: { name: scheme, ...(prefix !== undefined ? { prefix } : {}), ...signs },
      };
    }
    case "timestamped": {
      const timestamp = placed(decl, ctx, scheme, "timestamp", places.timestamp, {
        in: "signature",
        name: "t",
      });
      return { ...places, timestamp, signing: { name: scheme, timestamp: timestamp.name } };
    }
    case "standard-webhooks": {
      const timestamp = placed(decl, ctx, scheme, "timestamp", places.timestamp, {
        in: "header",
        name: "webhook-timestamp",
      });
      const deliveryId = placed(decl, ctx, scheme, "deliveryId", places.deliveryId, {
        in: "header",
        name: "webhook-id",
      });
      return {
        timestamp,
        deliveryId,
        signing: { name: scheme, id: deliveryId.name, timestamp: timestamp.name },
      };
    }
    case "token":
      // the secret as it is: no digest, so no time or id is signed; a declared place is the
      // replay guard's to read, as it stands
      return { ...places, signing: { name: scheme } };
    default: {
      const unhandled: never = scheme;
      throw new Error(`unhandled signature scheme ${String(unhandled)}`);
    }
  }
}
