/**
 * The identifiers of the generated code that the spec's names become, worked out once for the
 * whole model (docs/security.md, "Names"). A spec name is kept as written wherever it travels
 * (a path, a field, a parameter, an event); what is made unique here is only the identifier
 * the package declares for it:
 *
 * - one PascalCase name per operation (`aB.x` and `a.bX` are both `ABX`: the second is
 *   `ABX2`), so the endpoint functions, parameters interfaces and the rest differ;
 * - the names generated from it (`ABXParams`, `ABXResponseHeaders`, `ABXEvent`, the group's
 *   `ABApi`, a callback's `ABXResult`) yield to the spec's own types and to each other, by
 *   taking the first free number (with a warning when a spec type holds the name);
 * - members of the client and of its groups never take a name that breaks or shadows an
 *   object member (`constructor` is `constructor_`: a class may not declare it, and
 *   `toString`, `then` or a group's `core` would shadow what the language or the runtime
 *   reads, and a method `new` would be a construct signature);
 * - handler and constant names are unique and never a reserved word.
 *
 * test/names.test.ts holds the instances; test/fuzz/names.fuzz.test.ts the property.
 */
import type { BuildContext } from "./build-context.ts";
import { camelCase, pascalCase, reservedWords } from "./casing.ts";
import type {
  ApiInfo,
  Callback,
  Endpoint,
  EndpointResponse,
  ErrorCode,
  NamedType,
  Webhooks,
} from "./model.ts";
import type { Decl } from "./merge.ts";
import {
  clientModuleValues,
  clientOptionNames,
  globalTypeNames,
  runtimeExportNames,
} from "./reserved-names.ts";

/**
 * Members every object has (Object.prototype's, as every engine names them), `then` (an
 * object with a `then` method is awaited as a promise), and `prototype`: a client or group
 * member of one of these names would break the class or shadow what the language reads.
 */
const objectMembers: ReadonlySet<string> = new Set([
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "__proto__",
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "prototype",
  "then",
  "toLocaleString",
  "toString",
  "valueOf",
]);

/**
 * Method names of a group that break it: what its instance holds itself (runtime/client/core.ts
 * `group()`: `core`), and `new`, which an interface reads as a construct signature.
 */
const groupOwnMembers: ReadonlySet<string> = new Set(["core", "new"]);

/** A member name of the client or of a group: the spec's name, or it with `_` when it would break a member. */
export function memberName(name: string, own: ReadonlySet<string> = new Set()): string {
  return objectMembers.has(name) || own.has(name) ? `${name}_` : name;
}

/**
 * Names of one scope: `claim` gives the wanted name, or it with the first free number after
 * it (`2`, `3`, ...) when the scope already holds it.
 */
export class NameScope {
  private readonly taken: Set<string>;
  constructor(taken: Iterable<string> = []) {
    this.taken = new Set(taken);
  }
  has(name: string): boolean {
    return this.taken.has(name);
  }
  claim(wanted: string): string {
    let name = wanted;
    for (let i = 2; this.taken.has(name); i++) name = `${wanted}${i}`;
    this.taken.add(name);
    return name;
  }
}

/** The fields of an endpoint that this pass names. */
type EndpointNames =
  | "pascalName"
  | "functionName"
  | "groupClassName"
  | "groupProperty"
  | "methodName";
/** An endpoint as build-operations.ts makes it, before its identifiers are given. */
export type UnnamedEndpoint = Omit<Endpoint, EndpointNames>;
/** A callback before its identifiers are given. */
export type UnnamedCallback = Omit<Callback, "pascalName" | "camelName" | "resultTypeName">;

/** What the naming pass reads. */
export interface UnnamedParts {
  api: ApiInfo;
  types: readonly NamedType[];
  endpoints: readonly UnnamedEndpoint[];
  callbacks: readonly UnnamedCallback[];
  webhooks: Webhooks | undefined;
  errorCodes: readonly ErrorCode[];
}

/** The parts with every identifier given. */
export interface NamedParts {
  endpoints: Endpoint[];
  callbacks: Callback[];
  webhooks: Webhooks | undefined;
  errorCodes: ErrorCode[];
}

/**
 * The client's companions, named after it: `MerchantClient` has `MerchantCore`,
 * `MerchantApiError` and `MerchantEndpointId`.
 */
export function clientCompanions(clientName: string): {
  coreClassName: string;
  errorClassName: string;
  endpointIdTypeName: string;
  environmentsName: string;
} {
  const stem = clientName.replace(/Client$/, "");
  return {
    coreClassName: `${stem}Core`,
    errorClassName: `${stem}ApiError`,
    endpointIdTypeName: `${stem}EndpointId`,
    environmentsName: `${stem}Environments`,
  };
}

/**
 * PascalCase names the package declares whatever the spec says, beside its runtime's: the
 * client, its options, its core and its error class, and the callback router's types. A spec
 * type of one of these names is an error (`type-name-generated`); the importer renames such
 * a schema.
 */
export function fixedNames(clientName: string): string[] {
  const { coreClassName, errorClassName, endpointIdTypeName, environmentsName } =
    clientCompanions(clientName);
  return [
    clientName,
    `${clientName}Options`,
    `${clientName}Settings`,
    coreClassName,
    errorClassName,
    endpointIdTypeName,
    environmentsName,
    "CallbackHandlers",
    "CallbackRouterOptions",
    "WebhookHandlers",
    "WebhookDeliveryHeaders",
  ];
}

/** A generated name: the wanted one, unless a spec type or an earlier generated name holds it. */
type Generate = (wanted: string, what: string, owner: string) => string;

/** Gives every identifier of the model its final, unique name (see the file's comment). */
export function withNames(ctx: BuildContext, parts: UnnamedParts): NamedParts {
  const generated = packageScope(ctx, parts);
  const operations = new NameScope();
  const endpointPascals = parts.endpoints.map((e) => operations.claim(pascalCase(e.id)));
  const callbackPascals = parts.callbacks.map((c) => operations.claim(pascalCase(c.event)));
  const groupClasses = new Map<string, string>();
  const groupClass = (group: string) => {
    if (!groupClasses.has(group))
      groupClasses.set(
        group,
        generated(`${pascalCase(group)}Api`, "class of the methods", `group ${group}`),
      );
    return groupClasses.get(group)!;
  };
  const endpoints = parts.endpoints.map((e, i) =>
    endpointNames(e, endpointPascals[i]!, groupClass(e.group), generated),
  );
  // The handler scaffold declares each callback's handler beside `handlers`, `webhookHandlers`
  // and a stub per webhook event, `on<Event>`.
  const handlers = new NameScope(["handlers", "webhookHandlers"]);
  const callbacks = parts.callbacks.map((c, i): Callback => {
    const pascal = callbackPascals[i]!;
    const owner = `callback ${c.event}`;
    return {
      ...c,
      pascalName: pascal,
      camelName: handlers.claim(safeIdentifier(camelCase(pascal))),
      ...(c.params.length
        ? { paramsTypeName: generated(`${pascal}Params`, "parameters interface", owner) }
        : {}),
      resultTypeName: generated(`${pascal}Result`, "answer type", owner),
    };
  });
  const webhooks = parts.webhooks && {
    ...parts.webhooks,
    events: parts.webhooks.events.map((e) => {
      const base = pascalCase(e.name) || "Event";
      let pascal = base;
      for (let n = 2; handlers.has(`on${pascal}`); n++) pascal = `${base}${n}`;
      handlers.claim(`on${pascal}`);
      return { ...e, pascalName: pascal };
    }),
  };
  return { endpoints, callbacks, webhooks, errorCodes: errorCodeNames(parts.errorCodes) };
}

/**
 * The package's PascalCase names: the spec's types, the runtime's exports and the package's
 * own are taken first; a generated name takes the wanted one when free, else the first free
 * number, with a warning at the spec type that holds it.
 */
function packageScope(ctx: BuildContext, parts: UnnamedParts): Generate {
  const typeNames = new Map(parts.types.map((t) => [t.name, t.location] as const));
  const scope = new NameScope([
    ...typeNames.keys(),
    ...runtimeExportNames,
    ...fixedNames(parts.api.clientName),
  ]);
  return (wanted, what, owner) => {
    const name = scope.claim(wanted);
    const holder = typeNames.get(wanted);
    if (name !== wanted && holder)
      ctx.bag.report("generated-name-taken", { name: wanted, what, owner, given: name }, holder);
    return name;
  };
}

/** An endpoint with its identifiers, from its unique PascalCase name. */
function endpointNames(
  e: UnnamedEndpoint,
  pascal: string,
  groupClassName: string,
  generated: Generate,
): Endpoint {
  const owner = `endpoint ${e.id}`;
  const inlineBody = e.body !== undefined && !(e.body.kind === "ref" && !e.body.nullable);
  return {
    ...e,
    pascalName: pascal,
    functionName: functionName(pascal),
    groupClassName,
    groupProperty: memberName(e.group),
    methodName: memberName(e.name, groupOwnMembers),
    ...(e.params.length
      ? { paramsTypeName: generated(`${pascal}Params`, "parameters interface", owner) }
      : {}),
    ...(inlineBody
      ? { bodyValidatorName: `validate${generated(`${pascal}Body`, "body validator", owner)}` }
      : {}),
    response: responseNames(e.response, pascal, owner, generated),
    ...(e.streamResponse
      ? { streamResponse: responseNames(e.streamResponse, pascal, owner, generated) }
      : {}),
  };
}

/**
 * The standalone function of an endpoint: the camelCase of its PascalCase name, with `_`
 * after it when that would be a name the client's module imports or a validator's
 * (`validate.order` would be `validateOrder`, the validator of `Order`).
 */
function functionName(pascal: string): string {
  const camel = camelCase(pascal);
  const taken =
    /^validate[A-Z0-9]/.test(camel) || clientModuleValues.has(camel) || reservedWords.has(camel);
  return taken ? `${camel}_` : camel;
}

/** A name a generated declaration may take: `_` after a reserved word, `_` before a leading digit. */
function safeIdentifier(name: string): string {
  const named = /^[0-9]/.test(name) ? `_${name}` : name || "handler";
  return reservedWords.has(named) ? `${named}_` : named;
}

/** A response with its generated names: its headers interface and its events union. */
function responseNames<R extends EndpointResponse>(
  response: R,
  pascal: string,
  owner: string,
  generated: Generate,
): R {
  const { stream } = response;
  return {
    ...response,
    ...(response.headers.length
      ? {
          headersTypeName: generated(
            `${pascal}ResponseHeaders`,
            "response headers interface",
            owner,
          ),
        }
      : {}),
    ...(stream?.events.length
      ? { stream: { ...stream, eventTypeName: generated(`${pascal}Event`, "events union", owner) } }
      : {}),
  };
}

/**
 * The names of the error code constants, unique: a name the spec gives is kept (the first
 * of two alike), a derived one (`card_declined` is `cardDeclined`, and so is
 * `card-declined`) takes the first free number.
 */
function errorCodeNames(codes: readonly ErrorCode[]): ErrorCode[] {
  const derived = (code: ErrorCode) =>
    typeof code.code === "number" ? `code${code.code}` : camelCase(code.code);
  const scope = new NameScope();
  const given = codes.map((code) =>
    code.name !== derived(code) ? scope.claim(code.name) : undefined,
  );
  return codes.map((code, i) => {
    const name = given[i] ?? scope.claim(code.name || "code");
    return name === code.name ? code : { ...code, name };
  });
}

/**
 * The client option of each credential: its id, or `<id>Credential` (then a number) for an id
 * the client's own options hold (`fetch`, `headers`).
 */
export function credentialOptionNames(ids: readonly string[]): Map<string, string> {
  const scope = new NameScope([...ids, ...clientOptionNames]);
  return new Map(
    ids.map((id) => [id, clientOptionNames.has(id) ? scope.claim(`${id}Credential`) : id]),
  );
}

/**
 * Reports each spec type named like what the runtime exports (`type-name-reserved`), what
 * the package declares itself or a global the generated code names (`type-name-generated`):
 * the package would declare or import the name twice, or shadow the global.
 */
export function checkTypeNames(
  ctx: BuildContext,
  types: readonly Decl<unknown>[],
  clientName: string,
): void {
  const declared = new Set(fixedNames(clientName));
  for (const decl of types) {
    const at = decl.file.locate(decl.path, "key");
    if (runtimeExportNames.has(decl.name))
      ctx.bag.report("type-name-reserved", { name: decl.name }, at);
    else if (declared.has(decl.name))
      ctx.bag.report(
        "type-name-generated",
        {
          name: decl.name,
          what: "one the generated package declares (its client, the client's options, core or error class, or the callback router's types)",
        },
        at,
      );
    else if (globalTypeNames.has(decl.name))
      ctx.bag.report(
        "type-name-generated",
        { name: decl.name, what: "a global the generated code names" },
        at,
      );
  }
}
