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

/** `subscription_id` -> `subscriptionId`; `product.info` -> `productInfo`. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal[0]!.toLowerCase() + pascal.slice(1);
}
