/**
 * Emits the OpenAPI document three ways: `openapi.json` and `openapi.yaml` at the package
 * root (the same data; the YAML starts with the generated-file banner as a comment), and
 * `src/openapi.ts`, which exports it as the constant `openApiDocument` so that tools can
 * import it from the package. Output is byte-stable: key order is fixed by the emitter,
 * and nothing varies between runs.
 */
import { call, lit, member } from "../code/build.ts";
import { printSourceFile } from "../code/source-file.ts";
import type { EmitContext, EmittedFile } from "../context.ts";
import { jsonText, lineComment } from "../shared/escape.ts";
import { globalRef, modules } from "../shared/symbols.ts";
import { indexSignatureType, keyword } from "../shared/type-expr.ts";
import { buildOpenApiDocument } from "./document.ts";
import { yamlText } from "./yaml-text.ts";

/** `openapi.json`, `openapi.yaml` and `src/openapi.ts` of the generated package. */
export function emitOpenApiFiles(ctx: EmitContext): EmittedFile[] {
  const document = buildOpenApiDocument(ctx.model);
  const json = jsonText(document, 2);
  // No anchors or aliases: a schema object used twice is written out twice.
  // yaml-text.ts writes what YAML.stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 })
  // would, without the library's node tree.
  const yaml = yamlText(document, `# ${lineComment(ctx.banner)}\n`);
  // The document travels as one JSON string: a literal of this size would cost printing
  // and every type-check of the package seconds, for types no tool needs.
  const ts = printSourceFile({
    path: modules.openapi,
    banner: ctx.banner,
    statements: [
      {
        statement: {
          kind: "variable",
          declarationKind: "const",
          name: "openApiDocument",
          isExported: true,
          docs: [
            `The OpenAPI ${String(document.openapi)} document of ${ctx.model.api.title}, the same as \`openapi.json\` and \`openapi.yaml\``,
            "at the package root, as a plain object for tools that take a document object.",
          ],
          type: indexSignatureType(keyword("unknown"), true),
          init: {
            ...call(member(globalRef("JSON", false), "parse"), lit(jsonText(document))),
            pure: true,
          },
        },
      },
    ],
  });
  return [
    { path: "openapi.json", contents: `${json}\n` },
    { path: "openapi.yaml", contents: yaml },
    { path: modules.openapi, contents: ts },
  ];
}
