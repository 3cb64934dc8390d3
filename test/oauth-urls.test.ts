/**
 * What the spec format takes as a URL of an OAuth flow or an OpenID Connect provider (a unit
 * table): https: and http: URLs, paths under the base URL, and `{name}` template variables
 * the caller fills in; not a fragment, white space, a stray brace, a user name or another
 * scheme. And whether a URL is a template, which makes the client's `tokenUrl` option required.
 */
import { describe, expect, it } from "vitest";
import { isOAuthUrl, isTemplateUrl } from "../generator/ir/build-oauth.ts";

describe("isOAuthUrl", () => {
  it.each([
    ["https://auth.example.com/oauth/token", true],
    ["http://localhost:5305/connect/token", true],
    ["/oauth/token", true],
    ["/as/token?realm=staff", true],
    [
      "https://{shortCode}.api.commercecloud.salesforce.com/organizations/{organizationId}/token",
      true,
    ],
    ["{nrfApiRoot}/oauth2/token", true],
    ["/{tenant}/token", true],
    ["#umgebungsspezifisch", false],
    ["https://auth.example.com/token#frag", false],
    ["//auth.example.com/token", false],
    ["ftp://auth.example.com/token", false],
    ["https://user:pw@auth.example.com/token", false],
    ["/oauth/to ken", false],
    ["/oauth\\token", false],
    ["https://{short code}.example.com/token", false],
    ["https://example.com/{open/token", false],
    ["oauth/token", false],
  ])("%s: %s", (url, want) => {
    expect(isOAuthUrl(url)).toBe(want);
  });
});

describe("isTemplateUrl", () => {
  it.each([
    ["https://{shortCode}.example.com/token", true],
    ["{nrfApiRoot}/oauth2/token", true],
    ["https://auth.example.com/token", false],
    ["/oauth/token", false],
  ])("%s: %s", (url, want) => {
    expect(isTemplateUrl(url)).toBe(want);
  });
});
