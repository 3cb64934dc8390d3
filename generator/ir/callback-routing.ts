/**
 * What the callback router needs to know about each callback, read off the model once the
 * types are resolved: where a failure body puts its code and its explanation
 * (`error: {code, message}`, `errors: [{code, data: [{reason}]}]`, ...), which response
 * field the router fills with the event name, which header carries the signature (and where
 * signed calls carry their signing time and delivery id), and what each parameter's URL text
 * becomes. Emitters read the result from the IR; none spells an event's shape by hand.
 */
import type { FormFieldKind } from "../runtime/callbacks/form.ts";
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import type {
  ApiModel,
  Callback,
  CallbackRouting,
  Credential,
  FailureShape,
  Field,
  Literal,
  NamedType,
  Param,
  ReplayPlaces,
  TypeNode,
  Webhooks,
} from "./model.ts";

/** Name of the field that carries the event in requests and responses, as the spec writes it. */
export const eventFieldName = "event";

/** Name of the field of the numeric code in an error, as the spec writes it. */
export const codeFieldName = "code";

/** Name of the error code of a signature failure in the spec's catalogue. */
export const signatureCodeName = "signatureInvalid";

/** The named types by name, for following references. */
export type TypeLookup = ReadonlyMap<string, NamedType>;

/** Follows references (aliases) to the type they name; a cycle stops where it closes. */
/**
 * Whether a webhook event's answer goes out as text (`text/plain`, the string itself), not
 * JSON: an answer that is a string (Twitch's verification challenge, which must be the body
 * alone; a JSON string in quotes fails it).
 */
export function answersAsText(success: TypeNode | undefined, types: TypeLookup): boolean {
  if (!success) return false;
  const type = resolveType(success, types);
  return type.kind === "primitive" && type.name === "string";
}

export function resolveType(node: TypeNode, types: TypeLookup): TypeNode {
  const seen = new Set<string>();
  let current = node;
  while (current.kind === "ref" && !seen.has(current.name)) {
    seen.add(current.name);
    const named = types.get(current.name);
    if (!named) break;
    current = named.type;
  }
  return current;
}

/** The fields of a type that is an object (through references), else `undefined`. */
export function objectFieldsOf(node: TypeNode | undefined, types: TypeLookup): Field[] | undefined {
  if (!node) return undefined;
  const resolved = resolveType(node, types);
  return resolved.kind === "object" ? resolved.fields : undefined;
}

/** The object fields of an array's items, when `node` is an array of objects. */
function itemFieldsOf(node: TypeNode, types: TypeLookup): Field[] | undefined {
  const resolved = resolveType(node, types);
  return resolved.kind === "array" ? objectFieldsOf(resolved.items, types) : undefined;
}

/** A field that can hold an explanation: a string (or a value of unshown type). */
function isTextType(node: TypeNode, types: TypeLookup): boolean {
  const resolved = resolveType(node, types);
  return (
    (resolved.kind === "primitive" && resolved.name === "string") || resolved.kind === "unknown"
  );
}

/** Where the explanation goes among `fields`: the first text field, or list of one-field objects. */
function textPlacement(fields: readonly Field[], types: TypeLookup): FailureShape["text"] {
  for (const field of fields) {
    if (field.name === codeFieldName) continue;
    if (isTextType(field.type, types)) return { field: field.name };
    const item = itemFieldsOf(field.type, types)?.[0];
    if (item) return { field: field.name, item: item.name };
  }
  return undefined;
}

/** Parts of an error object: its code field and its text placement. */
function errorParts(
  fields: readonly Field[],
  types: TypeLookup,
): Pick<FailureShape, "code" | "text"> {
  const text = textPlacement(fields, types);
  return {
    ...(fields.some((f) => f.name === codeFieldName) ? { code: codeFieldName } : {}),
    ...(text ? { text } : {}),
  };
}

/**
 * The failure shape of a callback from its failure type, or `undefined` where the spec gives
 * no object failure type (the runtime's generic `{ error: { code, message } }` is used).
 */
export function failureShapeOf(
  failure: TypeNode | undefined,
  types: TypeLookup,
): FailureShape | undefined {
  const fields = objectFieldsOf(failure, types);
  if (!fields) return undefined;
  const fixed: Record<string, Literal> = {};
  let event: string | undefined;
  const rest: Field[] = [];
  for (const field of fields) {
    const type = resolveType(field.type, types);
    if (type.kind === "literal" && !type.nullable) fixed[field.name] = type.value;
    else if (field.name === eventFieldName) event = field.name;
    else rest.push(field);
  }
  const base = { fixed, ...(event !== undefined ? { event } : {}) };
  for (const field of rest) {
    const single = objectFieldsOf(field.type, types);
    if (single?.some((f) => f.name === codeFieldName))
      return {
        ...base,
        container: { field: field.name, list: false },
        ...errorParts(single, types),
      };
    const items = itemFieldsOf(field.type, types);
    if (items?.some((f) => f.name === codeFieldName))
      return { ...base, container: { field: field.name, list: true }, ...errorParts(items, types) };
  }
  const parts = errorParts(rest, types);
  return parts.code !== undefined || parts.text !== undefined ? { ...base, ...parts } : undefined;
}

/** `event` when every response type of the callback has that field: the router fills it, handlers leave it out. */
function responseEventOf(callback: Callback, types: TypeLookup): string | undefined {
  const responses = [callback.success, callback.failure].filter(
    (t): t is TypeNode => t !== undefined,
  );
  const all =
    responses.length > 0 &&
    responses.every((t) => objectFieldsOf(t, types)?.some((f) => f.name === eventFieldName));
  return all ? eventFieldName : undefined;
}

/** The first `in: signature` credential with a header among `auth`: the one the router checks. */
export function signatureCredentialOf(
  auth: readonly string[],
  credentials: readonly Credential[],
): Credential | undefined {
  for (const id of auth) {
    const credential = credentials.find((c) => c.id === id);
    if (credential?.placement === "signature" && credential.header) return credential;
  }
  return undefined;
}

/** The header of the first `in: signature` credential among `auth`, if any. */
export function signatureHeaderOf(
  auth: readonly string[],
  credentials: readonly Credential[],
): string | undefined {
  return signatureCredentialOf(auth, credentials)?.header;
}

/** Where the calls a credential signs carry their signing time and delivery id; absent: neither. */
function replayOf(credential: Credential | undefined): ReplayPlaces | undefined {
  if (!credential?.timestamp && !credential?.deliveryId) return undefined;
  return {
    ...(credential.timestamp ? { timestamp: credential.timestamp } : {}),
    ...(credential.deliveryId ? { deliveryId: credential.deliveryId } : {}),
  };
}

/**
 * A delivery id read from the body needs a body, and a field of it at its name (the router
 * reads `body.event.id` for `event.id`, PagerDuty's): a callback without a body cannot carry
 * one, and a name no field of an object body has would refuse every delivery at run time. Said
 * once per credential, naming every callback or event it is wrong for.
 */
export function checkDeliveryIdPlaces(
  callbacks: readonly Callback[],
  webhooks: Webhooks | undefined,
  credentials: readonly Credential[],
  types: TypeLookup,
  bag: DiagnosticBag,
): void {
  const wrong = new Map<Credential, { what: string[]; bodies: string[] }>();
  const checkField = (what: string, credential: Credential, body: TypeNode) => {
    // a body that is no object (or a union) is not told what it holds
    if (!("missing" in fieldPathEnd(body, credential.deliveryId!.name.split("."), types))) return;
    const seen = wrong.get(credential) ?? { what: [], bodies: [] };
    seen.what.push(what);
    seen.bodies.push(body.kind === "ref" ? body.name : "the body");
    wrong.set(credential, seen);
  };
  for (const callback of callbacks) {
    const place = signatureCredentialOf(callback.auth, credentials);
    if (place?.deliveryId?.in !== "body") continue;
    if (callback.body === undefined)
      bag.report(
        "callback-delivery-id-body",
        { event: callback.event, credential: place.id, field: place.deliveryId.name },
        callback.location,
      );
    else checkField(`callback ${callback.event}`, place, callback.body);
  }
  const place = webhooks && signatureCredentialOf(webhooks.auth, credentials);
  if (place?.deliveryId?.in === "body") {
    if (webhooks!.payload) checkField("the webhook deliveries", place, webhooks!.payload);
    for (const event of webhooks!.events)
      checkField(`webhook event ${event.name}`, place, event.payload);
  }
  for (const [credential, { what, bodies }] of wrong)
    bag.report(
      "delivery-id-field",
      {
        what: listText(what),
        credential: credential.id,
        field: credential.deliveryId!.name,
        body: listText([...new Set(bodies)]),
      },
      credential.location,
    );
}

/** `a`, `a and b`, `a, b and c`. */
const listText = (items: readonly string[]): string =>
  items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

/**
 * Where a path of field names leads in a type (`event.event_type`): the type of the field it
 * names; the steps walked before one that no object there declares (`missing`) or before one
 * into a value that is no object (`notObject`); or `open` where a union, an unknown type or a
 * type parameter on the way may hold it (its members are not walked).
 */
export type FieldPathEnd =
  | { found: TypeNode }
  | { missing: readonly string[] }
  | { notObject: readonly string[] }
  | { open: true };

/** Walks `path` through the objects of `node` (FieldPathEnd says what it gives). */
export function fieldPathEnd(
  node: TypeNode,
  path: readonly string[],
  types: TypeLookup,
): FieldPathEnd {
  let current = node;
  const walked: string[] = [];
  for (const name of path) {
    const resolved = resolveType(current, types);
    if (resolved.kind === "unknown" || resolved.kind === "union" || resolved.kind === "param")
      return { open: true };
    if (resolved.kind !== "object") return { notObject: walked };
    const field = resolved.fields.find((f) => f.name === name);
    if (!field) return { missing: walked };
    current = field.type;
    walked.push(name);
  }
  return { found: current };
}

/**
 * Warns, at each callback and at the webhooks, about those no signature credential covers:
 * the router serves them to anyone, and a spec that forgot the credential reads the same.
 * Only for a spec without errors, so the list of a broken spec's problems stays its own.
 */
export function warnUnsigned(
  callbacks: readonly Callback[],
  webhooks: Webhooks | undefined,
  credentials: readonly Credential[],
  bag: DiagnosticBag,
): void {
  // what an auth names instead: a key sent as it is, which covers nothing of the body
  const named = (auth: readonly string[]) => {
    const others = credentials.filter((c) => auth.includes(c.id) && c.placement !== "signature");
    return others.length
      ? ` (only ${others.map((c) => `${c.id}, \`in: ${c.placement}\``).join("; ")}: a key sent as it is, not a signature of the body)`
      : "";
  };
  for (const callback of callbacks)
    if (signatureCredentialOf(callback.auth, credentials) === undefined)
      bag.report(
        "callback-unsigned",
        { what: `callback ${callback.event}`, named: named(callback.auth) },
        callback.location,
      );
  if (webhooks && signatureCredentialOf(webhooks.auth, credentials) === undefined)
    bag.report(
      "callback-unsigned",
      { what: "every webhook delivery", named: named(webhooks.auth) },
      webhooks.location,
    );
}

/** How a parameter's URL text becomes the value its validator checks. */
export function urlValueOf(node: TypeNode, types: TypeLookup): Param["urlValue"] {
  const resolved = resolveType(node, types);
  switch (resolved.kind) {
    case "primitive":
      return resolved.name === "boolean"
        ? "boolean"
        : resolved.name === "string"
          ? undefined
          : "number";
    case "literal":
    case "enum": {
      const value = resolved.kind === "literal" ? resolved.value : resolved.values[0];
      return typeof value === "number"
        ? "number"
        : typeof value === "boolean"
          ? "boolean"
          : undefined;
    }
    case "unknown":
    case "param":
    case "ref":
    case "array":
    case "map":
    case "object":
    case "union":
      return undefined;
    default: {
      const unhandled: never = resolved;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The routing of one callback, and its parameters with their URL values. */
function routeCallback(callback: Callback, model: ApiModel, types: TypeLookup): Callback {
  const signature = signatureCredentialOf(callback.auth, model.credentials);
  const header = signature?.header;
  const scheme = signature?.signing;
  const replay = replayOf(signature);
  const event = responseEventOf(callback, types);
  const failureShape = failureShapeOf(callback.failure, types);
  const form = formOf(callback, types);
  const routing: CallbackRouting = {
    ...(header ? { signatureHeader: header } : {}),
    ...(header && scheme ? { signatureScheme: scheme } : {}),
    ...(replay ? { replay } : {}),
    ...(event ? { responseEvent: event } : {}),
    ...(failureShape ? { failureShape } : {}),
    ...(form ? { form } : {}),
  };
  const params = callback.params.map((p) => {
    const urlValue = urlValueOf(p.type, types);
    return urlValue ? { ...p, urlValue } : p;
  });
  return { ...callback, params, routing };
}

/**
 * How a callback's form body is read (Twilio's status callbacks: `Content-Type:
 * application/x-www-form-urlencoded`), field by field as its body type says: a number, a
 * boolean, or a list of them or of texts; undefined for a callback whose body is not a form.
 */
function formOf(callback: Callback, types: TypeLookup): Record<string, FormFieldKind> | undefined {
  const contentType = callback.headers.find((h) => h.name.toLowerCase() === "content-type")?.value;
  if (!callback.body || !/^application\/x-www-form-urlencoded\b/i.test(contentType ?? ""))
    return undefined;
  const kinds: Record<string, FormFieldKind> = {};
  for (const field of objectFieldsOf(callback.body, types) ?? []) {
    const type = resolveType(field.type, types);
    const item = type.kind === "array" ? urlValueOf(type.items, types) : urlValueOf(type, types);
    const kind: FormFieldKind | undefined =
      type.kind === "array"
        ? item === "number"
          ? "numbers"
          : item === "boolean"
            ? "booleans"
            : "list"
        : item;
    if (kind) kinds[field.name] = kind;
  }
  return kinds;
}

/** A top-level field of a payload declared as exactly `name` (a string literal), through references. */
function namesEvent(payload: TypeNode, field: string, name: string, types: TypeLookup): boolean {
  const declared = objectFieldsOf(payload, types)?.find((f) => f.name === field);
  if (!declared) return false;
  const type = resolveType(declared.type, types);
  return type.kind === "literal" && type.value === name;
}

/**
 * Where the signed body names the event of a delivery whose header names it: the first field
 * that every event's payload declares as the event's own name; none when one payload does not.
 */
function bodyEventFieldOf(webhooks: Webhooks, types: TypeLookup): string | undefined {
  const [first, ...rest] = webhooks.events;
  if (webhooks.eventSelector?.in !== "header" || !first) return undefined;
  return objectFieldsOf(first.payload, types)
    ?.map((f) => f.name)
    .find((field) =>
      [first, ...rest].every((event) => namesEvent(event.payload, field, event.name, types)),
    );
}

/** The model with every callback's routing, the webhooks' signature header and the signature code. */
export function withCallbackRouting(model: ApiModel): ApiModel {
  const types: TypeLookup = new Map(model.types.map((t) => [t.name, t]));
  const webhookSignature =
    model.webhooks && signatureCredentialOf(model.webhooks.auth, model.credentials);
  const webhookHeader = webhookSignature?.header;
  const webhookReplay = replayOf(webhookSignature);
  return {
    ...model,
    callbacks: model.callbacks.map((c) => routeCallback(c, model, types)),
    callbackSignatureCode: numericCode(
      model.errors.codes.find((c) => c.name === signatureCodeName)?.code,
    ),
    ...(model.webhooks
      ? {
          webhooks: {
            ...model.webhooks,
            ...(webhookHeader ? { signatureHeader: webhookHeader } : {}),
            ...(webhookHeader && webhookSignature?.signing
              ? { signatureScheme: webhookSignature.signing }
              : {}),
            ...(webhookReplay ? { replay: webhookReplay } : {}),
            ...bodyEventFieldEntry(model.webhooks, types),
            ...headerValuesEntry(model.webhooks, types),
          },
        }
      : {}),
  };
}

/** `{ headerValues }`: what each declared delivery header's text becomes, as a URL parameter's does. */
function headerValuesEntry(
  webhooks: Webhooks,
  types: TypeLookup,
): { headerValues?: { name: string; as?: "number" | "boolean" }[] } {
  const fields = webhooks.headers?.kind === "object" ? webhooks.headers.fields : undefined;
  if (!fields) return {};
  return {
    headerValues: fields.map((f) => {
      const as = urlValueOf(f.type, types);
      return as ? { name: f.name, as } : { name: f.name };
    }),
  };
}

/** `{ bodyEventField }` when the signed body names the event too, else nothing. */
function bodyEventFieldEntry(webhooks: Webhooks, types: TypeLookup): { bodyEventField?: string } {
  const field = bodyEventFieldOf(webhooks, types);
  return field === undefined ? {} : { bodyEventField: field };
}

/** The router answers with a numeric code; a string `signatureInvalid` keeps the default 422. */
function numericCode(code: number | string | undefined): number {
  return typeof code === "number" ? code : 422;
}
