/**
 * How the client sends what is not the path or the body: the descriptor entries of an
 * endpoint's credentials (header, basic, query; optional or not) and of its query and
 * header parameters (styles, header names, defaults to send), and the argument that holds
 * them. Shared by client-file.ts and client-docs.ts.
 */
import type { Credential, Endpoint } from "../ir/model.ts";
import { obj, type Json, type JsonObject } from "./shared/json.ts";

/** How the runtime sends one credential of an endpoint, or nothing for one it does not send. */
export function credentialSpec(endpoint: Endpoint, c: Credential | undefined): JsonObject[] {
  if (!c || !isSent(c)) return [];
  const placement = c.placement as "header" | "basic" | "query";
  return [
    obj({
      option: c.id,
      header: placement === "header" ? c.header! : undefined,
      scheme: placement === "header" && c.scheme ? c.scheme : undefined,
      query: placement === "query" ? c.name! : undefined,
      basic: placement === "basic" ? true : undefined,
      optional: endpoint.optionalAuth.includes(c.id) ? true : undefined,
      either: endpoint.authAnyOf?.includes(c.id) ? true : undefined,
    }),
  ];
}

/** The descriptor entries of the non-path parameters: styles, header names, defaults to send. */
export function paramsSpec(endpoint: Endpoint): Record<string, Json | undefined> {
  const styled = endpoint.params.filter((p) => p.placement === "query" && p.style);
  const inHeaders = endpoint.params.filter((p) => p.placement === "header");
  const sendDefault = endpoint.params.filter((p) => p.sendDefault);
  const renamed = endpoint.params.filter((p) => !inPath(p) && p.wireName !== undefined);
  return {
    styles: styled.length ? Object.fromEntries(styled.map((p) => [p.name, p.style!])) : undefined,
    headerParams: inHeaders.length ? inHeaders.map((p) => p.name) : undefined,
    sendDefaults: sendDefault.length
      ? Object.fromEntries(sendDefault.map((p) => [p.name, (p.type.docs.default ?? null) as Json]))
      : undefined,
    wireNames: renamed.length
      ? Object.fromEntries(renamed.map((p) => [p.name, p.wireName!]))
      : undefined,
  };
}

/** Whether a parameter travels in the path (as a positional argument of the call). */
export const inPath = (p: Endpoint["params"][number]) =>
  p.placement === "path" || p.placement === "trailing";

/**
 * The argument of the query and header parameters: `query` when there are only query
 * parameters, `params` when headers are among them.
 */
export function paramsArgName(endpoint: Endpoint): string {
  return endpoint.params.some((p) => p.placement === "header") ? "params" : "query";
}

/** Whether the client sends a credential: in a header, as HTTP basic or in the query string. */
export function isSent(c: Credential): boolean {
  return (
    (c.placement === "header" && c.header !== undefined) ||
    c.placement === "basic" ||
    (c.placement === "query" && c.name !== undefined)
  );
}

/** How a credential option says where its value goes. */
export function sentAs(c: Credential): string {
  if (c.placement === "basic") {
    const fixed = c.basicFixed;
    if (fixed && "username" in fixed)
      return `Sent as \`Authorization: Basic …\` (base64 of \`${fixed.username}:\` and this, the password)`;
    if (fixed)
      return `Sent as \`Authorization: Basic …\` (base64 of this, the user name, and \`:${fixed.password}\`)`;
    return "Sent as `Authorization: Basic …` (base64 of `username:password`)";
  }
  if (c.placement === "query") return `Sent in the query string as \`${c.name}=…\``;
  return `Sent as \`${c.header}${c.scheme ? `: ${c.scheme} …` : ""}\``;
}
