/**
 * How the stand-in matches a request's path to a route's template (runtime/testing/request.ts):
 * a segment that is one parameter, and a segment of parameters among fixed text, as Twilio's
 * `/2010-04-01/Accounts/{Sid}.json` (test/corpus-calls.test.ts found the stand-in answering
 * 404 to every such route); and which of several matching routes answers (the sweep's typed
 * calls found ClearBlade's `/admin/platform/systems` answered by `/admin/platform/{systemKey}`,
 * listed before it, with that route's empty body; useapi.net's `/jobs/` answered by `/jobs`;
 * TomTom's `{Y}.pbf` answered by `{Y}.{format}`, listed before it); and a catch-all last
 * parameter (`slashes: true`: Goa's and ASP.NET's `{*path}`), which takes the rest of the path.
 */
import { describe, expect, it } from "vitest";
import { matchPath, mostSpecific } from "../generator/runtime/testing/request.ts";
import type { Route } from "../generator/runtime/testing/table.ts";

const route = (path: string, trailing: string[] = []) =>
  ({ path, params: trailing.map((name) => ({ name, in: "trailing" })) }) as unknown as Route;

describe("matchPath", () => {
  it.each([
    ["/accounts/{sid}", "/accounts/AC1", { sid: "AC1" }],
    ["/Accounts/{Sid}.json", "/Accounts/AC1.json", { Sid: "AC1" }],
    ["/Accounts/{Sid}.json", "/Accounts/a.b.json", { Sid: "a.b" }],
    ["/Accounts/{Sid}.json", "/Accounts/caf%C3%A9.json", { Sid: "café" }],
    ["/range/{from}..{to}", "/range/1..9", { from: "1", to: "9" }],
    ["/c/{id}/show.json", "/c/7/show.json", { id: "7" }],
    ["/v1/{name}:cancel", "/v1/ops%2F1:cancel", { name: "ops/1" }],
  ])("%s matches %s", (template, path, params) => {
    expect(matchPath(route(template), path)).toEqual(params);
  });

  it.each([
    ["/Accounts/{Sid}.json", "/Accounts/AC1"],
    ["/Accounts/{Sid}.json", "/Accounts/.json"],
    ["/Accounts/{Sid}.json", "/Accounts/AC1.xml"],
    ["/Accounts/{Sid}.json", "/Accounts/%E0%A4%A.json"],
    ["/range/{from}..{to}", "/range/1-9"],
    ["/accounts/{sid}", "/accounts/AC1/calls"],
  ])("%s does not match %s", (template, path) => {
    expect(matchPath(route(template), path)).toBeUndefined();
  });
});

describe("matchPath: a parameter whose type lists its texts, beside another in one segment", () => {
  // Bufferapp's /profiles/{id}{mediaTypeExtension}, the extension a closed enum of ".json"
  const bufferapp = {
    path: "/profiles/{id}{mediaTypeExtension}",
    params: [
      { name: "id", in: "path" },
      { name: "mediaTypeExtension", in: "path", values: [".json"] },
    ],
  } as unknown as Route;
  it.each([
    ["/profiles/abc.json", { id: "abc", mediaTypeExtension: ".json" }],
    ["/profiles/a.b.json", { id: "a.b", mediaTypeExtension: ".json" }],
    ["/profiles/abc.xml", undefined],
    ["/profiles/.json", undefined],
  ])("%s -> %o", (path, want) => {
    expect(matchPath(bufferapp, path)).toEqual(want);
  });
  it("takes a listed text as the client percent-encodes it", () => {
    const route = {
      path: "/files/{name}{suffix}",
      params: [
        { name: "name", in: "path" },
        { name: "suffix", in: "path", values: [" (copy)"] },
      ],
    } as unknown as Route;
    expect(matchPath(route, "/files/report%20(copy)")).toEqual({
      name: "report",
      suffix: " (copy)",
    });
  });
});

describe("mostSpecific: of the routes matching a path, the one a router picks", () => {
  it.each([
    [
      ["/admin/platform/{systemKey}", "/admin/platform/systems"],
      "/admin/platform/systems",
      "/admin/platform/systems",
    ],
    [
      ["/admin/platform/systems", "/admin/platform/{systemKey}"],
      "/admin/platform/systems",
      "/admin/platform/systems",
    ],
    [["/files/{id}", "/files/{id}.json"], "/files/7.json", "/files/{id}.json"],
    // TomTom lists /tile/{Y}.{format} before /tile/{Y}.pbf: more fixed text, more specific
    [["/tile/{Y}.{format}", "/tile/{Y}.pbf"], "/tile/7.pbf", "/tile/{Y}.pbf"],
    [["/tile/{Y}.pbf", "/tile/{Y}.{format}"], "/tile/7.pbf", "/tile/{Y}.pbf"],
    [["/r/{a}-{b}", "/r/{a}-x"], "/r/1-x", "/r/{a}-x"],
    [["/a/{x}/c", "/a/b/{y}"], "/a/b/c", "/a/b/{y}"],
    [["/v1/{a}", "/v1/{b}"], "/v1/x", "/v1/{a}"],
    // useapi.net lists /jobs (a list) and /jobs/ (one job by a query parameter)
    [["/jobs", "/jobs/"], "/jobs/", "/jobs/"],
    [["/jobs", "/jobs/"], "/jobs", "/jobs"],
    [["/jobs/"], "/jobs", "/jobs/"],
    // TomTom's GetMap is /wms/ and its GetCapabilities /wms//
    [["/map/{v}/wms/", "/map/{v}/wms//"], "/map/1/wms//", "/map/{v}/wms//"],
    [["/map/{v}/wms//", "/map/{v}/wms/"], "/map/1/wms/", "/map/{v}/wms/"],
  ])("of %j, for %s: %s", (templates, path, want) => {
    const matches = templates.map((template) => ({ route: route(template) }));
    expect(mostSpecific(matches, path)?.route.path).toBe(want);
  });
  it("none of none", () => expect(mostSpecific([], "/")).toBeUndefined());
});

describe("a catch-all last parameter (`slashes`): the rest of the path, after any other route", () => {
  const catchAll = (path: string, name = "path") =>
    ({ path, params: [{ name, in: "path", slashes: true }] }) as unknown as Route;
  it.each([
    ["/files/a", { path: "a" }],
    ["/files/docs/a%20b.md", { path: "docs/a b.md" }],
    ["/files/a%2Fb/c", { path: "a/b/c" }],
    ["/files", undefined],
    ["/other/a/b", undefined],
    ["/files/%E0%A4%A/b", undefined],
  ])("/files/{path} and %s -> %o", (path, want) => {
    expect(matchPath(catchAll("/files/{path}"), path)).toEqual(want);
  });
  it("a route that fixes a later segment answers before the catch-all, whatever the order", () => {
    const meta = { route: route("/files/{id}/meta") };
    const all = { route: catchAll("/files/{path}") };
    expect(mostSpecific([all, meta], "/files/7/meta")?.route.path).toBe("/files/{id}/meta");
    expect(mostSpecific([meta, all], "/files/7/meta")?.route.path).toBe("/files/{id}/meta");
    const one = { route: route("/files/{id}") };
    expect(mostSpecific([all, one], "/files/7")?.route.path).toBe("/files/{id}");
  });
});
