/**
 * The `environment` option of a client whose spec names environments with their addresses
 * (`environments: { sandbox: { baseUrl }, production: { baseUrl } }`): a client is made with
 * `environment: "sandbox"` or with its own `baseUrl`, which wins when both are given (a proxy
 * in front of the environment). Only such packages carry this module.
 */
import type { CoreOptions } from "./core.js";
import { ClientOptionsError } from "./errors.js";

/** The options of such a client: `baseUrl` or `environment` (one of the spec's names). */
export interface EnvironmentOptions<E extends string> extends Omit<CoreOptions, "baseUrl"> {
  /**
   * Base address of the API; default the address of `environment`. An http: or https: URL
   * without user name, password, query or fragment (relative to the page in a browser).
   */
  baseUrl?: string;
  /** The environment whose base address the spec gives; `baseUrl` instead where it has another. */
  environment?: E;
}

/** A client's options with its address given: `baseUrl`, or `environment` (one of `E`). */
export type Addressed<O, E extends string> = O & ({ baseUrl: string } | { environment: E });

/**
 * The base address a client sends to: its `baseUrl`, else its environment's. Neither, or an
 * environment the spec does not name (from JavaScript, which the types do not hold), is a
 * `ClientOptionsError` naming the spec's environments.
 */
export function environmentUrl(
  options: { baseUrl?: string | undefined; environment?: string | undefined },
  environments: Readonly<Record<string, string>>,
): string {
  if (options.baseUrl !== undefined) return options.baseUrl;
  const names = Object.keys(environments).join(", ");
  const name = options.environment;
  if (name === undefined)
    throw new ClientOptionsError("baseUrl", `or environment (${names}) is required`);
  if (!Object.hasOwn(environments, name))
    throw new ClientOptionsError("environment", `is none of the API's: ${names}`);
  return environments[name]!;
}
