/**
 * HTTP basic credentials of which the API fixes one half (Mailgun's user name `api`; Stripe's
 * empty password, its secret key being the user name): the client's option is the other half
 * alone, a string or a function giving one, which this makes the pair the request loop sends.
 * Only packages with such a credential carry this module.
 */
import type { BasicCredentialValue, CredentialValue } from "./core.js";
import type { BasicCredentials } from "./params.js";

/** The pair of `fixed` and the option's value; undefined where the option is not given. */
export function fixedBasic(
  fixed: { username: string } | { password: string },
  value: CredentialValue | undefined,
): BasicCredentialValue | undefined {
  if (value === undefined) return undefined;
  const pair = (given: string): BasicCredentials =>
    "username" in fixed
      ? { username: fixed.username, password: given }
      : { username: given, password: fixed.password };
  return typeof value === "function" ? async () => pair(await value()) : pair(value);
}
