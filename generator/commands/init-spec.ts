/**
 * The spec folder `apigen init` writes for a new API: one file per section, each a small
 * example to replace (an API, its credentials, one type, one endpoint, one callback, signed so
 * that the router it generates checks who calls), each with the modeline that points editors
 * at the installed JSON Schema of the format.
 */

export interface InitNames {
  /** npm name of the package, `api.name`. */
  packageName: string;
  /** `api.title`: "Shop API". */
  title: string;
  /** `api.clientName`: "ShopClient". */
  clientName: string;
}

/** The names for a package called `packageName` (`@acme/shop-api` -> "Shop API", ShopClient). */
export function initNames(packageName: string): InitNames {
  const bare = packageName.replace(/^@[^/]*\//, "").replace(/[-_.]?api$/i, "");
  const words = bare
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  const pascal = words.join("");
  const start = /^[A-Z]/.test(pascal) ? pascal : `Api${pascal}`;
  return { packageName, title: `${words.join(" ") || "My"} API`, clientName: `${start}Client` };
}

/** The files, by name within the spec folder; `schema` is the schema's path from the folder. */
export function initSpecFiles(names: InitNames, schema: string): { name: string; text: string }[] {
  const modeline = `# yaml-language-server: $schema=${schema}\n\n`;
  const file = (name: string, lines: string[]) => ({
    name,
    text: `${modeline}${lines.join("\n")}\n`,
  });
  return [
    file("api.yaml", [
      "api:",
      // `@` cannot start a plain YAML scalar: a scoped name is quoted
      `  name: ${/^[a-z0-9]/.test(names.packageName) ? names.packageName : JSON.stringify(names.packageName)}`,
      `  title: ${names.title}`,
      "  version: 0.1.0",
      `  clientName: ${names.clientName}`,
      "  baseUrl: base_url",
      "  callbackBaseUrl: your_server_url",
      "  # clientDefaults: { timeoutMs: 60000, maxRetries: 2 }   # the client's, when your API needs others",
      "  description: >-",
      "    What the API is for. Replace this file and the others in this folder with your API;",
      "    docs/spec-model.md of apigen describes every key.",
      "",
      "credentials:",
      "  apiKey:",
      "    description: API key, sent with every call.",
      "    in: header",
      "    header: X-API-Key",
      "  signingSecret:",
      "    description: Secret the API signs its calls to your server with; your server checks them with it.",
      "    in: signature",
      "    header: X-Signature",
      "    rules:",
      "      - X-Signature is the base64 HMAC-SHA256 of the raw body, keyed with the secret.",
    ]),
    file("types.yaml", [
      "types:",
      "  Item:",
      "    description: One item.",
      "    fields:",
      "      id: { type: string, required: true, description: The item's id. }",
      "      name: { type: string, required: true }",
      "      price_cents: { type: integer, minimum: 0, description: Price in cents. }",
      '      tags: "string[]"',
    ]),
    file("endpoints.yaml", [
      "endpoints:",
      "  items.get:",
      "    summary: Get an item",
      "    method: GET",
      "    path: /items/{item_id}",
      "    auth: [apiKey]",
      "    params:",
      "      item_id: string",
      "    response:",
      "      status: 200",
      "      body: Item",
      "    errors:",
      "      - { status: 404, description: No item has this id. }",
    ]),
    file("callbacks.yaml", [
      "callbacks:",
      "  item.changed:",
      "    summary: An item changed",
      "    description: The API calls your server when an item changes.",
      "    method: POST",
      "    path: /item-changed",
      "    auth: [signingSecret]   # signed: the router refuses a request without a valid X-Signature",
      "    headers:",
      "      Content-Type: application/json",
      "    body: Item",
      "    success: { fields: { received: boolean } }",
    ]),
  ];
}
