/**
 * A service's own OAuth 2.0 token by the client-credentials grant (RFC 6749 section 4.4): a
 * credential function the client calls once per request, which asks the token endpoint for a
 * token when it has none or its token is about to expire, and otherwise answers from memory.
 * Calls that need a token while one is being fetched wait for that one fetch. The client
 * secret goes to the token endpoint only (never to the API, never in an error or a log line),
 * over https (or http to this machine, for a stand-in); the token endpoint's answer is read up
 * to 64 KiB within the time limit, and a redirect is refused, so the secret never goes
 * elsewhere. A package whose spec has an `in: oauth2` credential with a clientCredentials flow
 * exports a function that fills in its token URL (`<credential>ClientCredentials`).
 */
import { readText } from "./body.js";
import { ClientError, ClientOptionsError } from "./errors.js";
import { redact } from "./redact.js";

/** What a client-credentials token getter is given. */
export interface ClientCredentialsOptions {
  clientId: string;
  clientSecret: string;
  /** The scopes to ask for (the `scope` parameter); none: the server's default grant. */
  scopes?: readonly string[];
  /**
   * Where tokens are asked for: the spec's token URL by default. A URL relative to `baseUrl`
   * (the spec's may be one: `/oauth/token`) needs `baseUrl`.
   */
  tokenUrl?: string;
  /** The API's base URL, which a relative token URL is under (the client's `baseUrl`). */
  baseUrl?: string;
  /**
   * How the client authenticates itself: `basic` (the default, RFC 6749 section 2.3.1's
   * `Authorization: Basic`), `body` (`client_id` and `client_secret` in the form), or `json`
   * (the request's fields as a JSON object, credentials among them: not RFC 6749's form, but
   * what some token endpoints take, Sakari's among them).
   */
  authMethod?: "basic" | "body" | "json";
  /** Ask for a new token this many seconds before the current one expires (default 60). */
  refreshLeewaySeconds?: number;
  /** Time limit of one token request in ms (default 30,000). */
  timeoutMs?: number;
  /** fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** A credential function that holds a token; `invalidate()` drops it, so the next call fetches another. */
export interface TokenGetter {
  (): Promise<string>;
  invalidate(): void;
}

/**
 * The token endpoint refused, failed or answered something that is no token. `status` is the
 * HTTP status (0: no answer); `error` and `errorDescription` are the OAuth error response's
 * (RFC 6749 section 5.2), redacted of the secret.
 */
export class TokenRequestError extends ClientError {
  static override readonly "~brand": string = "apigen:TokenRequestError";
  override name = "TokenRequestError";
  constructor(
    message: string,
    readonly status: number,
    readonly error?: string,
    readonly errorDescription?: string,
    options?: { cause?: unknown },
  ) {
    super(message, "", options);
  }
}

const maxAnswerBytes = 64 * 1024;
const loopback = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The token URL, absolute; https, or http to this machine. */
function tokenAddress(tokenUrl: string | undefined, baseUrl: string | undefined): URL {
  if (!tokenUrl) throw new ClientOptionsError("tokenUrl", "is required");
  const template = /\{[^{}]*\}/.exec(tokenUrl);
  if (template)
    throw new ClientOptionsError(
      "tokenUrl",
      `holds the template variable ${template[0]}: pass the token URL with its values filled in`,
    );
  let url: URL;
  try {
    url = /^[a-z][a-z0-9+.-]*:/i.test(tokenUrl)
      ? new URL(tokenUrl)
      : new URL(`${baseUrl!.replace(/\/+$/, "")}/${tokenUrl.replace(/^\/+/, "")}`);
  } catch {
    throw new ClientOptionsError(
      "tokenUrl",
      baseUrl === undefined ? "is relative and needs baseUrl" : "is not a URL",
    );
  }
  const plain = url.protocol === "http:" && loopback.has(url.hostname);
  if (url.protocol !== "https:" && !plain)
    throw new ClientOptionsError(
      "tokenUrl",
      "must be an https: URL (http: only to localhost), so the client secret is never sent in the clear",
    );
  if (url.username || url.password || url.hash)
    throw new ClientOptionsError("tokenUrl", "has a user name, password or fragment");
  return url;
}

/** `application/x-www-form-urlencoded` as RFC 6749 appendix B has the client id and secret encoded. */
const formEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);

/** The request that asks for a token. */
function tokenRequest(options: ClientCredentialsOptions): { body: string; headers: HeadersInit } {
  const { clientId, clientSecret, scopes, authMethod = "basic" } = options;
  const fields = [["grant_type", "client_credentials"]];
  if (scopes?.length) fields.push(["scope", scopes.join(" ")]);
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  if (authMethod === "json") {
    fields.push(["client_id", clientId], ["client_secret", clientSecret]);
    headers["content-type"] = "application/json";
    return { body: JSON.stringify(Object.fromEntries(fields)), headers };
  }
  if (authMethod === "body") fields.push(["client_id", clientId], ["client_secret", clientSecret]);
  else {
    let binary = "";
    const pair = `${formEncode(clientId)}:${formEncode(clientSecret)}`;
    for (const byte of new TextEncoder().encode(pair)) binary += String.fromCharCode(byte);
    headers.authorization = `Basic ${btoa(binary)}`;
  }
  return { body: fields.map(([k, v]) => `${k}=${formEncode(v!)}`).join("&"), headers };
}

/** A token and when to ask for the next one (ms since the epoch; Infinity: when it is refused). */
interface Held {
  token: string;
  renewAt: number;
}

/** The token of an answer, or a TokenRequestError saying why there is none. */
function heldOf(status: number, text: string, secrets: string[], leeway: number): Held {
  let answer: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object") answer = parsed as Record<string, unknown>;
  } catch {
    // not JSON: said below, by what is missing
  }
  const field = (key: string) =>
    typeof answer[key] === "string" ? redact(answer[key] as string, secrets) : undefined;
  if (status < 200 || status > 299) {
    const [error, description] = [field("error"), field("error_description")];
    const said = error ? `: ${error}${description ? ` (${description})` : ""}` : "";
    throw new TokenRequestError(
      `the token endpoint answered ${status}${said}`,
      status,
      error,
      description,
    );
  }
  const token = answer.access_token;
  if (typeof token !== "string" || token === "" || /[\r\n]/.test(token))
    throw new TokenRequestError("the token endpoint's answer holds no access_token", status);
  const type = answer.token_type;
  if (typeof type === "string" && type.toLowerCase() !== "bearer")
    throw new TokenRequestError(
      `the token endpoint gave a ${JSON.stringify(redact(type, secrets))} token, not a bearer token`,
      status,
    );
  const expiresIn = Number(answer.expires_in);
  const renewAt =
    answer.expires_in !== undefined && Number.isFinite(expiresIn) && expiresIn > 0
      ? Date.now() + Math.max(0, expiresIn - leeway) * 1000
      : Infinity;
  return { token, renewAt };
}

/**
 * A credential function for the client-credentials grant: the client's option of an OAuth
 * credential (`oauth: clientCredentials({ ... })`). Checks its options at once
 * (`ClientOptionsError`); a token endpoint's refusal or failure is a `TokenRequestError` of
 * the call that needed the token.
 */
export function clientCredentials(options: ClientCredentialsOptions): TokenGetter {
  const { clientId, clientSecret } = options;
  if (typeof clientId !== "string" || clientId === "")
    throw new ClientOptionsError("clientId", "is required");
  if (typeof clientSecret !== "string" || clientSecret === "")
    throw new ClientOptionsError("clientSecret", "is required");
  const url = tokenAddress(options.tokenUrl, options.baseUrl);
  const leeway = options.refreshLeewaySeconds ?? 60;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const secrets = [clientSecret];
  let held: Held | undefined;
  let pending: Promise<string> | undefined;

  const fetchToken = async (): Promise<string> => {
    const { body, headers } = tokenRequest(options);
    const doFetch = options.fetch ?? globalThis.fetch;
    let response: Response;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      response = await doFetch(url, { method: "POST", body, headers, redirect: "error", signal });
    } catch (cause) {
      const why = signal.aborted ? `no answer within ${timeoutMs} ms` : "no answer";
      throw new TokenRequestError(`the token endpoint gave ${why}`, 0, undefined, undefined, {
        cause,
      });
    }
    const { text } = await readText(response, maxAnswerBytes, {});
    held = heldOf(response.status, text, secrets, leeway);
    return held.token;
  };

  const getter = (() => {
    if (held && Date.now() < held.renewAt) return Promise.resolve(held.token);
    pending ??= fetchToken().finally(() => (pending = undefined));
    return pending;
  }) as TokenGetter;
  getter.invalidate = () => {
    held = undefined;
  };
  return getter;
}
