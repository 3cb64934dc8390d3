/**
 * The repository's own config: the Merchant Commerce API of spec/, generated into generated/
 * with every output on, so the committed package shows each of them (docs/usage.md,
 * "The config file"). `npm run generate` and every apigen command run here read it.
 */
import { defineConfig } from "apigen-cli";

export default defineConfig({
  name: "merchant",
  spec: "spec",
  out: "generated",
  outputs: {
    client: true,
    callbacks: true,
    openapi: true,
    testing: true,
    msw: true,
    tanstackQuery: true,
  },
});
