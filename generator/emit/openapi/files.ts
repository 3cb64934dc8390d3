/**
 * Emits the OpenAPI document three ways: `openapi.json` and `openapi.yaml` at the package
 * root (the same data; the YAML starts with the generated-file banner as a comment), and
 * `src/openapi.ts`, which exports it as the constant `openApiDocument` so that tools can
 * import it from the package. Output is byte-stable: key order is fixed by the emitter,
 * and nothing varies between runs.
 */
import YAML from "yaml";
import type { EmitContext, EmittedFile } from "../context.ts";
import { buildOpenApiDocument } from "./document.ts";

/** `openapi.json`, `openapi.yaml` and `src/openapi.ts` of the generated package. */
export function emitOpenApiFiles(ctx: EmitContext): EmittedFile[] {
  const document = buildOpenApiDocument(ctx.model);
  const json = JSON.stringify(document, null, 2);
  // No anchors or aliases: a schema object used twice is written out twice.
  const yaml = YAML.stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
  const ts = [
    `// ${ctx.banner}`,
    "",
    "/**",
    ` * The OpenAPI ${String(document.openapi)} document of ${ctx.model.api.title}, the same as \`openapi.json\` and \`openapi.yaml\``,
    " * at the package root. Pass it to a tool that takes a document object (cast it to the",
    " * tool's document type if it asks for mutable arrays).",
    " */",
    `export const openApiDocument = ${json} as const;`,
    "",
  ].join("\n");
  return [
    { path: "openapi.json", contents: `${json}\n`, parser: "json" },
    { path: "openapi.yaml", contents: `# ${ctx.banner}\n${yaml}`, parser: "yaml" },
    { path: "src/openapi.ts", contents: ts, parser: "typescript" },
  ];
}
