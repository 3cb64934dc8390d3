/**
 * Makes a synthetic spec N times the size of spec/: the original plus N-1 copies of every
 * type, endpoint and callback under new names (types `NameC<k>`, endpoint groups
 * `group.op` -> `groupcopyb.op`, callback events `evcopyb.name`, paths under `/c<k>/`),
 * references included. Usage: `tsx bench/synth-spec.ts <factor> <outDir>`.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const specDir = join(root, "spec");

/** 1 -> "copyb", 2 -> "copyc", ...: lower-case letters only (names are dotted lower-case words). */
function letters(k: number): string {
  let s = "";
  for (let n = k; n > 0; n = Math.floor(n / 26)) s = String.fromCharCode(97 + (n % 26)) + s;
  return `copy${s}`;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function makeSyntheticSpec(factor: number, outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  cpSync(specDir, outDir, { recursive: true });
  const typeFiles = readdirSync(join(specDir, "types")).filter((f) => f.endsWith(".yaml"));
  const typeTexts = typeFiles.map(
    (f) => [f, readFileSync(join(specDir, "types", f), "utf8")] as const,
  );
  const endpoints = readFileSync(join(specDir, "endpoints.yaml"), "utf8");
  const callbacks = readFileSync(join(specDir, "callbacks.yaml"), "utf8");
  const typeNames = new Set<string>();
  for (const [, text] of typeTexts)
    for (const m of text.matchAll(/^ {2}([A-Z][A-Za-z0-9]*):/gm)) typeNames.add(m[1]!);
  const groups = new Set(
    [...endpoints.matchAll(/^ {2}([A-Za-z0-9]+)\.[A-Za-z0-9]+:/gm)].map((m) => m[1]!),
  );
  const events = new Set(
    [...callbacks.matchAll(/^ {2}([A-Za-z0-9_]+)\.[A-Za-z0-9_.]+:/gm)].map((m) => m[1]!),
  );
  const typeRe = new RegExp(
    `\\b(${[...typeNames]
      .sort((a, b) => b.length - a.length)
      .map(escape)
      .join("|")})\\b`,
    "g",
  );
  const groupRe = new RegExp(
    `(?<![A-Za-z0-9_/])(${[...groups].map(escape).join("|")})\\.(?=[A-Za-z])`,
    "g",
  );
  const eventRe = new RegExp(`^( {2})(${[...events].map(escape).join("|")})\\.`, "gm");
  for (let k = 1; k < factor; k++) {
    const tag = letters(k);
    const renameTypes = (t: string) => t.replace(typeRe, `$1C${k}`);
    for (const [file, text] of typeTexts) {
      writeFileSync(
        join(outDir, "types", file.replace(/\.yaml$/, `-c${k}.yaml`)),
        renameTypes(text),
      );
    }
    let ep = renameTypes(endpoints).replace(groupRe, `$1${tag}.`);
    ep = ep.replace(/^(\s+path: )\/(v\d+)\//gm, `$1/$2/c${k}/`);
    writeFileSync(join(outDir, `endpoints-c${k}.yaml`), ep);
    let cb = renameTypes(callbacks).replace(eventRe, `$1$2${tag}.`);
    cb = cb
      .replace(/^(\s+summary: )([A-Za-z0-9_]+)\./gm, `$1$2${tag}.`)
      .replace(/^(\s+path: )\//gm, `$1/c${k}/`);
    writeFileSync(join(outDir, `callbacks-c${k}.yaml`), cb);
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const factor = Number(process.argv[2] ?? 10);
  const out = process.argv[3] ?? join(root, ".bench-tmp", `spec-x${factor}`);
  makeSyntheticSpec(factor, out);
  console.log(`synthetic spec x${factor} in ${out}`);
}
