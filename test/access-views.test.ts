/**
 * ir/access-views.ts as a table: given a spec's types (and a body), the named types the model
 * has, the fields of each, and what the endpoint's body names.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadModel } from "../generator/diff/load-base.ts";
import type { ApiModel, TypeNode } from "../generator/ir/model.ts";
import { tempDir } from "./helpers.ts";

const folders: string[] = [];
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function modelOf(types: string, body = "Root"): ApiModel {
  const dir = tempDir("apigen-access-views-");
  folders.push(dir);
  const spec = `api: { name: a, title: A, version: 1.0.0 }
types:
${types}
endpoints:
  roots.create: { method: POST, path: /r, body: ${body}, response: { status: 201, body: Root } }
`;
  writeFileSync(join(dir, "api.yaml"), spec);
  return loadModel(dir);
}

/** A node as short text: an object's field names, a reference's name, a container's item. */
function shown(node: TypeNode): string {
  switch (node.kind) {
    case "object":
      return `{${node.fields.map((f) => f.name).join(",")}}${node.base ? ` extends ${node.base.name}` : ""}`;
    case "ref":
      return node.name;
    case "array":
      return `${shown(node.items)}[]`;
    case "map":
      return `map<${shown(node.values)}>`;
    case "union":
      return node.variants.map(shown).join("|");
    default:
      return node.kind;
  }
}

const table: {
  name: string;
  types: string;
  body?: string;
  want: Record<string, string>;
  bodyWant: string;
}[] = [
  {
    name: "no field is marked: no views, the body names the type",
    types: "  Root: { fields: { a: string, b: string } }",
    want: { Root: "{a,b}" },
    bodyWant: "Root",
  },
  {
    name: "a writeOnly field: the type leaves it out, its view has it",
    types: "  Root: { fields: { a: string, secret: { type: string, writeOnly: true } } }",
    want: { Root: "{a}", RootWritable: "{a,secret}" },
    bodyWant: "RootWritable",
  },
  {
    name: "types that only refer to a marked one (an alias of an array, a map field) get views",
    types: [
      "  Item: { fields: { id: { type: string, readOnly: true }, n: integer } }",
      '  Items: "Item[]"',
      "  Root: { fields: { items: Items, byName: map<Item>, label: Label } }",
      "  Label: { fields: { text: string } }",
    ].join("\n"),
    want: {
      Item: "{id,n}",
      ItemWritable: "{n}",
      Items: "Item[]",
      ItemsWritable: "ItemWritable[]",
      Root: "{items,byName,label}",
      RootWritable: "{items,byName,label}",
      Label: "{text}",
    },
    bodyWant: "RootWritable",
  },
  {
    name: "a view's name a spec type has already: the next free one",
    types: [
      "  Root: { fields: { id: { type: string, readOnly: true }, a: string } }",
      "  RootWritable: { fields: { other: string } }",
    ].join("\n"),
    want: { Root: "{id,a}", RootWritable2: "{a}", RootWritable: "{other}" },
    bodyWant: "RootWritable2",
  },
  {
    name: "a cycle: each type of it gets a view, referring to the other's",
    types: [
      "  Root: { fields: { child: Child } }",
      "  Child: { fields: { parent: Root, at: { type: string, readOnly: true } } }",
    ].join("\n"),
    want: {
      Root: "{child}",
      RootWritable: "{child}",
      Child: "{parent,at}",
      ChildWritable: "{parent}",
    },
    bodyWant: "RootWritable",
  },
  {
    name: "an extended type's view extends the base's view",
    types: [
      "  Base: { fields: { id: { type: string, readOnly: true } } }",
      "  Root: { extends: Base, fields: { a: string } }",
    ].join("\n"),
    want: {
      Base: "{id}",
      BaseWritable: "{}",
      Root: "{id,a} extends Base",
      RootWritable: "{a} extends BaseWritable",
    },
    bodyWant: "RootWritable",
  },
  {
    name: "a marked type no request body reaches gets no view, but its answers leave writeOnly fields out",
    types: [
      "  Root: { fields: { a: string } }",
      "  Answer: { fields: { id: { type: string, readOnly: true }, pin: { type: string, writeOnly: true } } }",
      "  Holder: { fields: { answer: Answer } }",
    ].join("\n"),
    want: { Root: "{a}", Answer: "{id}", Holder: "{answer}" },
    bodyWant: "Root",
  },
  {
    name: "a type only a writeOnly field names gets a view too (the read view leaves the field out)",
    types: [
      "  Root: { fields: { a: string, secret: { type: Secret, writeOnly: true } } }",
      "  Secret: { fields: { id: { type: string, readOnly: true }, value: string } }",
    ].join("\n"),
    want: {
      Root: "{a}",
      RootWritable: "{a,secret}",
      Secret: "{id,value}",
      SecretWritable: "{value}",
    },
    bodyWant: "RootWritable",
  },
  {
    name: "a body written inline leaves its readOnly fields out; no named type is made",
    types: "  Root: { fields: { a: string } }",
    body: "{ fields: { a: string, made: { type: string, readOnly: true } } }",
    want: { Root: "{a}" },
    bodyWant: "{a}",
  },
];

describe("the writable views of the model", () => {
  it.each(table)("$name", ({ types, body, want, bodyWant }) => {
    const model = modelOf(types, body);
    const named = Object.fromEntries(model.types.map((t) => [t.name, shown(t.type)]));
    expect(named).toEqual(want);
    expect(shown(model.endpoints[0]!.body!)).toBe(bodyWant);
  });

  it("keeps the spec's type for the OpenAPI document: `source` with both kinds, and the body it names", () => {
    const model = modelOf(
      "  Root: { fields: { id: { type: string, readOnly: true }, pin: { type: string, writeOnly: true } } }",
    );
    const root = model.types.find((t) => t.name === "Root")!;
    expect(shown(root.type)).toBe("{id}");
    expect(shown(root.source!)).toBe("{id,pin}");
    expect(model.types.find((t) => t.name === "RootWritable")?.view).toEqual({ of: "Root" });
    expect(shown(model.endpoints[0]!.bodySource!)).toBe("Root");
  });
});
