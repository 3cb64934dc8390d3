// @ts-check
/**
 * `import()` by Node itself, not by vitest's module runner (which takes over every import a
 * test file's modules make, and would run the generator's bundle, and a config module it
 * imports, through vite's resolution and errors): for test/helpers.ts runCli, which runs the
 * bundle as the process that launch.mjs starts would. A CommonJS file, required through
 * createRequire, is loaded by Node, and so is what it imports.
 * @param {string} url
 * @returns {Promise<unknown>}
 */
module.exports = (url) => import(url);
