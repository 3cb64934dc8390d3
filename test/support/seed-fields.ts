/**
 * The seed's field names, kept in the repository as `test/fixtures/seed/field-names.json` so
 * that the tests never read outside it. After the seed changes, refresh the fixture by hand:
 *
 *   npx tsx test/support/seed-fields.ts <path of the seed's merchant-commerce-api.md>
 *
 * The fixture records the seed's SHA-256, so a reader can tell which seed it was taken from.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const fixturePath = join(import.meta.dirname, "../fixtures/seed/field-names.json");

export interface SeedFields {
  /** SHA-256 of the seed the names were taken from. */
  seedSha256: string;
  fields: string[];
}

/** Backticked tokens and table-cell field lists that are values, paths or headers, not fields. */
const notFields = new Set([
  "bolt",
  "wh_",
  "in_transit",
  "cancelled",
  "delivered",
  "failure",
  "success",
  "succeeded",
  "base_url",
  "merchant_url",
  "MockService",
  "unprocessable_request",
  "openid",
  "all",
  "scheduled",
  "paused",
  "payment_failed",
  "true",
  "false",
  "string",
  "integer",
  "number",
  "boolean",
  "object",
  "array",
  "Money",
  "Transaction",
  "Shipment",
  "Address",
  "UnitPriceInCents",
  "Content-Type",
  "X-API-Key",
  "X-Publishable-Key",
  "X-Service-Hmac-Sha256",
  "X-Nonce",
  "GET",
  "POST",
  "DELETE",
  "Field",
]);

/** Field names the seed writes in its Resources, Endpoints and callback sections. */
export function seedFieldNames(seed: string): string[] {
  const start = seed.indexOf("## Resources and their fields");
  const end = seed.indexOf("## Authentication");
  const body = seed
    .slice(start, end)
    .replace(/^## States and transitions[\s\S]*?(?=^## Endpoints)/m, "");
  const names = new Set<string>();
  for (const match of body.matchAll(/`([^`]+)`/g)) {
    const token = match[1]!.replace(/\[\]$/, "");
    if (/^\.?[A-Za-z_][A-Za-z0-9_]*$/.test(token)) names.add(token);
  }
  for (const row of body.matchAll(/^\| ([^|]+) \|/gm)) {
    for (const cell of row[1]!.split(/[,/]/)) {
      const token = cell.trim().replace(/\[\]$/, "");
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(token)) names.add(token);
    }
  }
  for (const range of body.matchAll(/`(\w+?)(\d)`\.\.`\w+?(\d)`/g)) {
    for (let i = Number(range[2]); i <= Number(range[3]); i++) names.add(`${range[1]}${i}`);
  }
  return [...names].filter((n) => (!notFields.has(n) && !n.includes(".")) || n === ".tag").sort();
}

/** The fixture's contents. */
export function readSeedFields(): SeedFields {
  return JSON.parse(readFileSync(fixturePath, "utf8")) as SeedFields;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const seedPath = process.argv[2];
  if (!seedPath)
    throw new Error(
      "usage: npx tsx test/support/seed-fields.ts <path of merchant-commerce-api.md>",
    );
  const seed = readFileSync(seedPath, "utf8");
  const fixture: SeedFields = {
    seedSha256: createHash("sha256").update(seed).digest("hex"),
    fields: seedFieldNames(seed),
  };
  writeFileSync(fixturePath, `${JSON.stringify(fixture, null, 2)}\n`);
  console.log(`${fixturePath}: ${fixture.fields.length} field names`);
}
