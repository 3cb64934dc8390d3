#!/usr/bin/env node
// @ts-check
/**
 * What `npm run generate` runs: the generator as built ahead of time in dist/generator/ (by
 * `npm ci`, see build.mjs). When a source changed since that build (working on the generator
 * itself), it is built again first, which takes a few hundred milliseconds once.
 * `node --import tsx generator/cli.ts` runs the same command line from the sources.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildGenerator, builtStamp, distDir, sourceStamp } from "./build.mjs";

if (builtStamp() !== sourceStamp()) {
  try {
    await buildGenerator();
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    process.exit(1);
  }
}
const { runAsProcess } = await import(pathToFileURL(join(distDir, "cli.js")).href);
await runAsProcess();
