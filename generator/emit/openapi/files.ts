/**
 * Emits the OpenAPI document three ways: `openapi.json` and `openapi.yaml` at the package
 * root (the same data; the YAML starts with the generated-file banner as a comment), and
 * `src/openapi.ts`, which exports it as the constant `openApiDocument` so that tools can
 * import it from the package. Output is byte-stable: key order is fixed by the emitter,
 * and nothing varies between runs.
 */
import type { EmitContext, EmittedFile } from "../context.ts";
import { buildOpenApiDocument } from "./document.ts";
import { yamlText } from "./yaml-text.ts";

/** `openapi.json`, `openapi.yaml` and `src/openapi.ts` of the generated package. */
export function emitOpenApiFiles(ctx: EmitContext): EmittedFile[] {
  const document = buildOpenApiDocument(ctx.model);
  const json = JSON.stringify(document, null, 2);
  // No anchors or aliases: a schema object used twice is written out twice.
  // yaml-text.ts writes what YAML.stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 })
  // would, without the library's node tree.
  const yaml = yamlText(document);
  // The document travels as one JSON string: a literal of this size would cost formatting
  // and every type-check of the package seconds, for types no tool needs.
  const ts = [
    `// ${ctx.banner}`,
    "",
    "/**",
    ` * The OpenAPI ${String(document.openapi)} document of ${ctx.model.api.title}, the same as \`openapi.json\` and \`openapi.yaml\``,
    " * at the package root, as a plain object for tools that take a document object.",
    " */",
    `export const openApiDocument: { readonly [key: string]: unknown } = /* @__PURE__ */ JSON.parse(${JSON.stringify(JSON.stringify(document))});`,
    "",
  ].join("\n");
  // JSON.stringify and the yaml library write canonical text already: prettier is for code and prose.
  return [
    { path: "openapi.json", contents: `${json}\n`, parser: "none" },
    { path: "openapi.yaml", contents: `# ${ctx.banner}\n${yaml}`, parser: "none" },
    { path: "src/openapi.ts", contents: ts, parser: "typescript" },
  ];
}
