/**
 * Name casings, worked out once while building the IR.
 */

/** `transactions.authorize` -> `TransactionsAuthorize`; `subscription_id` -> `SubscriptionId`. */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}

/** `subscription_id` -> `subscriptionId`; `product.info` -> `productInfo`; `""` for a name without letters or digits. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal ? pascal[0]!.toLowerCase() + pascal.slice(1) : "";
}

/**
 * Words a parameter or declaration of generated code may not be named (strict mode, ES
 * modules), and the globals it must not shadow.
 */
export const reservedWords: ReadonlySet<string> = new Set(
  (
    "arguments await break case catch class const continue debugger default delete do else " +
    "enum eval export extends false finally for function if implements import in instanceof " +
    "interface let new null package private protected public return static super switch this " +
    "throw true try typeof var void while with yield undefined NaN Infinity globalThis"
  ).split(" "),
);

/**
 * A function parameter name for a spec name: its camelCase, made a valid identifier
 * (`{default}` -> `default_`, `{2fa}` -> `_2fa`, `{\\}` -> `param`).
 */
export function identifierFor(name: string): string {
  const camel = camelCase(name) || "param";
  const named = /^[0-9]/.test(camel) ? `_${camel}` : camel;
  return reservedWords.has(named) ? `${named}_` : named;
}
