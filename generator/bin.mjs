#!/usr/bin/env node
// @ts-check
/**
 * The installed command `apigen` (package.json `bin`): the generator as built ahead of time
 * into dist/generator/ (by `prepack`, so the packed tool needs no TypeScript loader and no
 * bundler where it is installed). In this repository `npm run generate` goes through
 * launch.mjs instead, which builds again when a source changed.
 */
const [major = 0] = process.versions.node.split(".").map(Number);
if (major < 20) {
  console.error(`apigen needs Node 20 or later; this is Node ${process.versions.node}`);
  process.exit(1);
}
// A dynamic import, so the version check runs before the generator is loaded.
const { runAsProcess } = await import("../dist/generator/cli.js");
await runAsProcess();
