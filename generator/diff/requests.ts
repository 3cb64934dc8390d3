/**
 * `--diff` of what every request carries: the headers the API sends on every request with a
 * fixed value, and versioning by header. A header's value is a change on the wire, not in
 * any type: minor. A version the `apiVersion` option no longer takes breaks callers who pin
 * it; a version added, another current version or another version header is minor (the
 * package's own types are those of its current version). A 304 that becomes, or stops being,
 * an endpoint's result breaks callers either way; so does a host the `hosts` option no longer
 * takes, or must now be given. The change list comes from
 * compare.ts, passed in, so neither file imports the other.
 */
import type { ApiModel } from "../ir/model.ts";
import type { WebhookChanges } from "./webhooks.ts";

/** The fixed headers of a model by lower-cased name, with the name as written and the value. */
const fixedOf = (m: ApiModel) =>
  new Map(m.fixedHeaders.map((h) => [h.name.toLowerCase(), `${h.name}: ${h.value}`]));

function diffFixedHeaders(out: WebhookChanges, before: ApiModel, after: ApiModel): void {
  const [old, now] = [fixedOf(before), fixedOf(after)];
  for (const [name, header] of now) {
    const was = old.get(name);
    if (was === undefined) out.add("headers", `every request now sends ${header}`, "minor");
    else if (was !== header) out.add("headers", `every request sends ${was} -> ${header}`, "minor");
  }
  for (const [name, header] of old)
    if (!now.has(name)) out.add("headers", `requests no longer send ${header}`, "minor");
}

function diffVersioning(out: WebhookChanges, before: ApiModel, after: ApiModel): void {
  const [old, now] = [before.versioning, after.versioning];
  const byHeader = (v: ApiModel["versioning"]) => v.scheme === "header";
  if (!byHeader(old) && !byHeader(now)) return;
  if (old.scheme !== now.scheme) {
    // The `apiVersion` option goes away (breaking for callers who set it) or comes.
    out.add(
      "versioning",
      `versioned by ${old.scheme} -> ${now.scheme}`,
      "minor",
      byHeader(old) ? ["callers"] : [],
    );
    return;
  }
  if (old.header !== now.header)
    out.add("versioning", `version header ${old.header} -> ${now.header}`, "minor");
  if (old.current !== now.current)
    out.add("versioning", `the client sends version ${old.current} -> ${now.current}`, "minor");
  const names = (v: ApiModel["versioning"]) => v.versions.map((ver) => ver.name);
  for (const name of names(now).filter((n) => !names(old).includes(n)))
    out.add("versioning", `version ${name} added`, "minor");
  for (const name of names(old).filter((n) => !names(now).includes(n)))
    out.add("versioning", `version ${name} removed (apiVersion no longer takes it)`, "minor", [
      "callers",
    ]);
}

/**
 * Conditional requests, per endpoint in both models: a 304 that becomes a result widens what
 * the call resolves to (`T | NotModified`: code that uses the body must narrow first), and one
 * that no longer is takes the `ifNoneMatch`/`ifModifiedSince` options away: both break callers.
 */
function diffNotModified(out: WebhookChanges, before: ApiModel, after: ApiModel): void {
  const now = new Map(after.endpoints.map((e) => [e.id, e.response.notModified === true]));
  for (const e of before.endpoints) {
    const was = e.response.notModified === true;
    const is = now.get(e.id);
    if (is === undefined || is === was) continue;
    const description = is
      ? "a 304 is now a result: the call resolves to the body or a NotModified"
      : "a 304 is no longer a result: the ifNoneMatch and ifModifiedSince options go";
    out.add(`endpoints.${e.id}.response`, description, "minor", ["callers"]);
  }
}

/**
 * The API's other hosts and which endpoints each serves. Where calls go is the wire only
 * (minor), except what the `hosts` option's type follows: a host removed takes its key away,
 * and a host that loses its default address must now be given: both break callers.
 */
function diffHosts(out: WebhookChanges, before: ApiModel, after: ApiModel): void {
  const now = new Map(after.hosts.map((h) => [h.name, h]));
  for (const host of before.hosts) {
    const next = now.get(host.name);
    const subject = `hosts.${host.name}`;
    if (!next)
      out.add(subject, "host removed (the hosts option no longer takes it)", "minor", ["callers"]);
    else if (host.baseUrl !== next.baseUrl) {
      const shown = (url: string | undefined) => url ?? "none (the hosts option must give one)";
      const required = host.baseUrl !== undefined && next.baseUrl === undefined;
      out.add(
        subject,
        `address ${shown(host.baseUrl)} -> ${shown(next.baseUrl)}`,
        "minor",
        required ? ["callers"] : [],
      );
    }
  }
  const old = new Set(before.hosts.map((h) => h.name));
  for (const host of after.hosts)
    if (!old.has(host.name))
      out.add(
        `hosts.${host.name}`,
        "host added",
        "minor",
        host.baseUrl === undefined ? ["callers"] : [],
      );
  const served = new Map(after.endpoints.map((e) => [e.id, e.host]));
  const where = (host: string | undefined) =>
    host === undefined ? "the base address" : `host ${host}`;
  for (const e of before.endpoints)
    if (served.has(e.id) && served.get(e.id) !== e.host)
      out.add(
        `endpoints.${e.id}`,
        `served from ${where(e.host)} -> ${where(served.get(e.id))}`,
        "minor",
      );
}

/** Every change to what the API's requests carry besides each endpoint's own parts. */
export function diffRequests(out: WebhookChanges, before: ApiModel, after: ApiModel): void {
  diffFixedHeaders(out, before, after);
  diffVersioning(out, before, after);
  diffNotModified(out, before, after);
  diffHosts(out, before, after);
}
