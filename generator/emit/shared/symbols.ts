/**
 * Where each symbol of the generated package is declared, as code-model references: an
 * emitter that uses a type, a validator or a runtime export names it through these, and the
 * file it prints imports it. Runtime names are checked against the runtime's own exports, so
 * a renamed runtime function fails to compile here rather than in the generated package.
 */
import type * as CallbacksCore from "../../runtime/callbacks/core.ts";
import type * as CallbacksNode from "../../runtime/callbacks/node-adapter.ts";
import type * as CallbacksFailure from "../../runtime/callbacks/failure.ts";
import type * as CallbacksFetch from "../../runtime/callbacks/fetch-adapter.ts";
import type * as CallbacksRouter from "../../runtime/callbacks/router.ts";
import type * as CallbacksSignature from "../../runtime/callbacks/signature.ts";
import type * as ClientConditional from "../../runtime/client/conditional.ts";
import type * as ClientCore from "../../runtime/client/core.ts";
import type * as ClientErrors from "../../runtime/client/errors.ts";
import type * as ClientFeatures from "../../runtime/client/features.ts";
import type * as ClientHooks from "../../runtime/client/hooks.ts";
import type * as ClientOAuth from "../../runtime/client/oauth.ts";
import type * as ClientBasic from "../../runtime/client/basic.ts";
import type * as ClientEnvironments from "../../runtime/client/environments.ts";
import type * as ClientPagination from "../../runtime/client/pagination.ts";
import type * as ClientResponse from "../../runtime/client/response.ts";
import type * as ClientResponseValidation from "../../runtime/client/response-validation.ts";
import type * as ClientStream from "../../runtime/client/stream.ts";
import type * as MswHandlers from "../../runtime/msw/handlers.ts";
import type * as TestingNode from "../../runtime/testing/node.ts";
import type * as TestingStandIn from "../../runtime/testing/stand-in.ts";
import type * as TestingTable from "../../runtime/testing/table.ts";
import type * as TanstackQuery from "../../runtime/tanstack/query.ts";
import type * as Unions from "../../runtime/unions.ts";
import type * as StandardSchema from "../../runtime/standard-schema.ts";
import type * as Validate from "../../runtime/validate.ts";
import type * as ValidatorData from "../../runtime/validator-data.ts";
import type { Ref } from "../code/nodes.ts";

/** Output paths of the generated package's files. */
export const modules = {
  types: "src/types.ts",
  validators: "src/validators.ts",
  requestValidators: "src/request-validators.ts",
  clientFeatures: "src/client-features.ts",
  requestValidatorsBrowser: "src/request-validators.browser.ts",
  errors: "src/errors.ts",
  client: "src/client.ts",
  callbacks: "src/callbacks.ts",
  openapi: "src/openapi.ts",
  index: "src/index.ts",
  testing: "src/testing.ts",
  msw: "src/msw.ts",
} as const;

const ref = (name: string, module: string | undefined, isType: boolean): Ref => ({
  kind: "ref",
  name,
  ...(module !== undefined ? { module } : {}),
  isType,
});

/** A named type of `src/types.ts`. */
export const typeRef = (name: string): Ref => ref(name, modules.types, true);

/** `validateMoney`: the generated validator of a named type or parameters interface. */
export const validatorName = (typeName: string): string => `validate${typeName}`;

/**
 * `moneySchema`: the Standard Schema of a named type or parameters interface, in
 * `src/validators.ts` (type names are PascalCase, so these never meet another name there).
 */
export const schemaName = (typeName: string): string =>
  `${typeName.charAt(0).toLowerCase()}${typeName.slice(1)}Schema`;

/** The validator of a named type or parameters interface, in `src/validators.ts`. */
export const validatorRef = (typeName: string): Ref =>
  ref(validatorName(typeName), modules.validators, false);

/**
 * A request validator as the client's endpoints take it: from `src/request-validators.ts`,
 * which the browser build swaps for a module without validators.
 */
export const requestValidatorRef = (name: string): Ref =>
  ref(name, modules.requestValidators, false);

/** A global of the language, never imported: `Promise`, `Record`, `Omit`, `JSON`. */
export const globalRef = (name: string, isType = true): Ref => ref(name, undefined, isType);

/** A symbol of another generated file. */
export const generatedRef = (module: string, name: string, isType: boolean): Ref =>
  ref(name, module, isType);

/** The runtime modules by their path below `src/runtime/`, with their exports' types. */
interface RuntimeModules {
  "validate.ts": typeof Validate;
  "validator-data.ts": typeof ValidatorData;
  "standard-schema.ts": typeof StandardSchema;
  "unions.ts": typeof Unions;
  "client/conditional.ts": typeof ClientConditional;
  "client/core.ts": typeof ClientCore;
  "client/errors.ts": typeof ClientErrors;
  "client/features.ts": typeof ClientFeatures;
  "client/hooks.ts": typeof ClientHooks;
  "client/oauth.ts": typeof ClientOAuth;
  "client/basic.ts": typeof ClientBasic;
  "client/environments.ts": typeof ClientEnvironments;
  "client/pagination.ts": typeof ClientPagination;
  "client/response.ts": typeof ClientResponse;
  "client/response-validation.ts": typeof ClientResponseValidation;
  /** Types only (`Expanded`). */
  "client/expand.ts": Record<string, never>;
  "client/stream.ts": typeof ClientStream;
  "callbacks/core.ts": typeof CallbacksCore;
  "callbacks/router.ts": typeof CallbacksRouter;
  "callbacks/failure.ts": typeof CallbacksFailure;
  "callbacks/node-adapter.ts": typeof CallbacksNode;
  "callbacks/fetch-adapter.ts": typeof CallbacksFetch;
  "callbacks/signature.ts": typeof CallbacksSignature;
  "testing/stand-in.ts": typeof TestingStandIn;
  "testing/node.ts": typeof TestingNode;
  "testing/table.ts": typeof TestingTable;
  "msw/handlers.ts": typeof MswHandlers;
  "tanstack/query.ts": typeof TanstackQuery;
}

/** A value exported by a runtime module: `runtimeValue("validate.ts", "object")`. */
export function runtimeValue<M extends keyof RuntimeModules>(
  module: M,
  name: keyof RuntimeModules[M] & string,
): Ref {
  return ref(name, `src/runtime/${module}`, false);
}

/**
 * A type exported by a runtime module. A type has no value to check its name against here;
 * the type-check of the generated package (test/typecheck.test.ts) catches a wrong one.
 */
export function runtimeType(module: keyof RuntimeModules, name: string): Ref {
  return ref(name, `src/runtime/${module}`, true);
}
