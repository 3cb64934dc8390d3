/**
 * The `environment` option of a client whose spec names environments with their addresses
 * (`environments: { sandbox: { baseUrl }, production: { baseUrl } }`): a client is made with
 * `environment: "sandbox"` or with its own `baseUrl`, which wins when both are given (a proxy
 * in front of the environment). Only such packages carry this module.
 */
import type { CoreOptions } from "./core.js";
import { ClientOptionsError } from "./errors.js";
import { baseAddress } from "./redirect.js";

/** The options of such a client: `baseUrl` or `environment` (one of the spec's names). */
export interface EnvironmentOptions<E extends string> extends Omit<CoreOptions, "baseUrl"> {
  /**
   * Base address of the API; default the address of `environment`. An http: or https: URL
   * without user name, password, query or fragment (relative to the page in a browser).
   */
  baseUrl?: string;
  /** The environment whose base address the spec gives; `baseUrl` instead where it has another. */
  environment?: E;
  /**
   * Values of the variables of the environment's address (`https://{subdomain}.example.com`):
   * each the spec declares, a variable left out taking its default. Not read with `baseUrl`.
   */
  serverVariables?: Readonly<Record<string, string>>;
}

/** A client's options with its address given: `baseUrl`, or `environment` (one of `E`). */
export type Addressed<O, E extends string> = AddressedWith<O, { environment: E }>;

/**
 * A client's options with its address given, where some environments' addresses have
 * variables: `baseUrl`, or one of `C`, each an environment with its variables' values
 * (`{ environment: "eu"; serverVariables: { subdomain: string } }`).
 */
export type AddressedWith<O, C> = O & ({ baseUrl: string } | C);

/** A variable of an environment's address: its default (none: the caller gives it), its values. */
export interface ServerVariable {
  default?: string;
  enum?: readonly string[];
}

/**
 * Why `value` cannot stand for a variable of an address, if it cannot: in the host it is a
 * name of letters, digits, dots and hyphens (or a port's digits), so no value moves the call
 * to another host (`evil.example#`, `user@evil.example`); in the path, unreserved characters
 * and slashes, with no `..` segment. Shared with the generator, which checks a spec's defaults.
 */
export function variableValueProblem(value: string, inHost: boolean): string | undefined {
  if (inHost)
    return /^[A-Za-z0-9.-]+$/.test(value)
      ? undefined
      : "is not a host name's letters, digits, dots and hyphens";
  if (!/^[A-Za-z0-9._~/-]*$/.test(value))
    return "has characters other than letters, digits, -._~ and /";
  return value.split("/").includes("..") ? "has a .. segment" : undefined;
}

/**
 * The variables an address names (`{name}`), each with its offset and whether it is in the
 * host part (before the first `/` after the scheme), where a value is held to a host name's
 * characters. Shared with the generator, which checks the spec's addresses and reads documents'.
 */
export function addressVariables(
  template: string,
): { name: string; at: number; inHost: boolean }[] {
  const hostEnd = template.indexOf("/", template.indexOf("://") + 3);
  return [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => ({
    name: m[1]!,
    at: m.index,
    inHost: hostEnd < 0 || m.index < hostEnd,
  }));
}

/**
 * Why the client would refuse `template` as its base address (a user name or password, a
 * query or fragment), its own parts only: each variable stands as `1`, which a host, a port and
 * a path all take (a variable's values are checked on their own, variableValueProblem).
 */
export function addressProblem(template: string): string | undefined {
  try {
    baseAddress(template.replace(/\{[^{}]*\}/g, "1"));
    return undefined;
  } catch (error) {
    return error instanceof ClientOptionsError
      ? error.message.replace(/^baseUrl /, "")
      : String(error);
  }
}

/** The address with each `{name}` filled in: the caller's value, else the variable's default. */
function filledAddress(
  environment: string,
  template: string,
  declared: Readonly<Record<string, ServerVariable>>,
  given: Readonly<Record<string, string>>,
): string {
  for (const name of Object.keys(given))
    if (!Object.hasOwn(declared, name))
      throw new ClientOptionsError(
        "serverVariables",
        `names ${name}, which is no variable of environment ${environment} (${Object.keys(declared).join(", ") || "none"})`,
      );
  let filled = "";
  let from = 0;
  for (const { name, at, inHost } of addressVariables(template)) {
    const variable = declared[name] ?? {};
    const value = Object.hasOwn(given, name) ? given[name] : variable.default;
    if (typeof value !== "string")
      throw new ClientOptionsError(
        "serverVariables",
        `needs ${name}: environment ${environment}'s address has it, and it has no default`,
      );
    if (variable.enum && !variable.enum.includes(value))
      throw new ClientOptionsError(
        "serverVariables",
        `${name} must be one of ${variable.enum.join(", ")}, not ${JSON.stringify(value)}`,
      );
    const problem = variableValueProblem(value, inHost);
    if (problem)
      throw new ClientOptionsError(
        "serverVariables",
        `${name} ${JSON.stringify(value)} ${problem}`,
      );
    filled += template.slice(from, at) + value;
    from = at + name.length + 2;
  }
  return filled + template.slice(from);
}

/**
 * The base address a client sends to: its `baseUrl`, else its environment's, its variables
 * filled in (`variables`: each environment's, as the spec declares them). Neither, an
 * environment the spec does not name (from JavaScript, which the types do not hold), or a
 * variable's value missing or not of its kind is a `ClientOptionsError` naming what is wrong.
 */
export function environmentUrl(
  options: {
    baseUrl?: string | undefined;
    environment?: string | undefined;
    serverVariables?: Readonly<Record<string, string>> | undefined;
  },
  environments: Readonly<Record<string, string>>,
  variables: Readonly<Record<string, Readonly<Record<string, ServerVariable>>>> = {},
): string {
  if (options.baseUrl !== undefined) return options.baseUrl;
  const names = Object.keys(environments).join(", ");
  const name = options.environment;
  if (name === undefined)
    throw new ClientOptionsError("baseUrl", `or environment (${names}) is required`);
  if (!Object.hasOwn(environments, name))
    throw new ClientOptionsError("environment", `is none of the API's: ${names}`);
  const declared = Object.hasOwn(variables, name) ? variables[name]! : {};
  return filledAddress(name, environments[name]!, declared, options.serverVariables ?? {});
}
