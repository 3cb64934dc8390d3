// TypeScript 6's tsc as the tests run it on generated packages, consumers and examples: the
// same compiler with `--skipDefaultLibCheck` put first on its command line, so it does not
// type-check TypeScript's own lib files (lib.dom.d.ts and the ES libs) again in every project.
// Those files are TypeScript's, not apigen's, and checking them was about a third of the CPU
// time of each check; test/typecheck.test.ts still checks them in full, under the generated
// package's own settings, and TypeScript 7 checks them in every test that runs both compilers.
// Every other file (the package's sources, its .d.ts files, a consumer's) is checked as
// `tsc -p` checks it. Build mode (`-b`) takes no such option and runs unchanged.
"use strict";
const path = require("node:path");
const args = process.argv.slice(2);
const build = args[0] === "-b" || args[0] === "--build";
if (!build && !args.some((a) => a === "-v" || a === "--version" || a === "--init"))
  process.argv.splice(2, 0, "--skipDefaultLibCheck");
require(path.join(__dirname, "../../node_modules/typescript/lib/tsc.js"));
