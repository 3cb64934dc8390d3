/**
 * Emits, into `src/client.ts`, a token getter maker for each `in: oauth2` credential with a
 * clientCredentials flow (`oauthClientCredentials(options)`: the runtime's client-credentials
 * grant with the spec's token URL filled in, to pass as the credential's option), and
 * re-exports what it takes, gives and throws. Nothing for a spec without one, whose package
 * leaves runtime/client/oauth.ts out.
 */
import { clientCredentialsFlow, isTemplateUrl } from "../ir/build-oauth.ts";
import type { ApiModel, Credential, OAuthFlow } from "../ir/model.ts";
import { call, id, ret } from "./code/build.ts";
import type { FileStatement } from "./code/nodes.ts";
import { runtimeType, runtimeValue } from "./shared/symbols.ts";

const oauthModule = "client/oauth.ts";

/** `oauthClientCredentials` for the credential `oauth`. */
export const clientCredentialsName = (credential: Credential): string =>
  `${credential.optionName}ClientCredentials`;

function makerStatement(credential: Credential, flow: OAuthFlow): FileStatement {
  const relative = flow.tokenUrl!.startsWith("/");
  // a token URL with template variables (`{shortCode}`) is the caller's to fill in
  const template = isTemplateUrl(flow.tokenUrl!);
  const options = runtimeType(oauthModule, "ClientCredentialsOptions");
  const scopes = flow.scopes.map((s) => s.name);
  return {
    statement: {
      kind: "function",
      name: clientCredentialsName(credential),
      isExported: true,
      docs: [
        `A token getter for \`${credential.id}\` by the OAuth client-credentials grant: asks \`${flow.tokenUrl}\`${template ? " (its template variables filled in: `options.tokenUrl` gives it)" : relative ? " (under `baseUrl`, which `options` must give)" : ""} for a token, keeps it until a minute before it expires, and asks again. Pass it as the client's \`${credential.optionName}\` option.`,
        ...(scopes.length
          ? [`Scopes the flow grants: ${scopes.map((s) => `\`${s}\``).join(", ")}.`]
          : []),
        ...(flow.tokenRequest === "json"
          ? [
              "The spec's token endpoint takes a JSON body: the request's fields (`client_id` and `client_secret` among them) go as JSON (`authMethod: \"json\"`).",
            ]
          : []),
        "@throws {ClientOptionsError} an option it cannot work with (the token URL must be https:, or http: to localhost).",
      ],
      params: [
        {
          name: "options",
          type: template
            ? {
                kind: "intersection",
                types: [
                  options,
                  {
                    kind: "object-type",
                    inline: true,
                    members: [
                      {
                        kind: "property-signature",
                        name: "tokenUrl",
                        type: { kind: "keyword", name: "string" },
                      },
                    ],
                  },
                ],
              }
            : options,
        },
      ],
      returnType: runtimeType(oauthModule, "TokenGetter"),
      body: [
        ret(
          call(
            runtimeValue(oauthModule, "clientCredentials"),
            // the caller's tokenUrl, required where the spec's has template variables
            template
              ? id("options")
              : {
                  kind: "object",
                  properties: [
                    {
                      kind: "property",
                      key: "tokenUrl",
                      value: { kind: "literal", value: flow.tokenUrl! },
                    },
                    // the spec's token endpoint takes JSON: the caller may still say otherwise
                    ...(flow.tokenRequest === "json"
                      ? [
                          {
                            kind: "property" as const,
                            key: "authMethod",
                            value: { kind: "literal" as const, value: "json" },
                          },
                        ]
                      : []),
                    { kind: "spread", expr: id("options") },
                  ],
                },
          ),
        ),
      ],
    },
  };
}

/** The makers, after a re-export of the runtime's grant and its types. */
export function clientCredentialsStatements(model: ApiModel): FileStatement[] {
  const makers = model.credentials.flatMap((credential) => {
    const flow = clientCredentialsFlow(credential);
    return flow ? [makerStatement(credential, flow)] : [];
  });
  if (!makers.length) return [];
  const reexport: FileStatement = {
    statement: {
      kind: "export-from",
      module: `src/runtime/${oauthModule}`,
      names: [
        { name: "TokenRequestError", isType: false },
        { name: "clientCredentials", isType: false },
        { name: "ClientCredentialsOptions", isType: true },
        { name: "TokenGetter", isType: true },
      ],
    },
    tight: true,
  };
  return [reexport, ...makers];
}
