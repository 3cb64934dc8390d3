/**
 * The signature of an endpoint with `expand` (model: `Endpoint.expand`): a `const` type
 * parameter takes the paths the call lists (`expand: ["customer"]`), the list's argument is
 * typed by it, and the result is the runtime's `Expanded<Answer, Paths, Plan>`: each
 * expandable field the object where its path was asked for, the id where it was not.
 */
import type { ApiModel, Endpoint, EndpointExpand } from "../ir/model.ts";
import type { Member, Param, TypeExpr, TypeParameter } from "./code/nodes.ts";
import { inPath } from "./client-params.ts";
import { runtimeType } from "./shared/symbols.ts";
import { generic, keyword, literalType, union } from "./shared/type-expr.ts";

/** A signature as client-file.ts builds it. */
export interface Signature {
  typeParameters?: TypeParameter[];
  params: Param[];
  returnType: TypeExpr;
}

/** The name of the paths' type parameter: `Paths`, or another where a spec type has that name. */
function pathsName(model: ApiModel): string {
  let name = "Paths";
  while (model.types.some((t) => t.name === name)) name += "_";
  return name;
}

/** `signature` narrowed by the expand list, or as it is for an endpoint without one. */
export function expandSignature(
  model: ApiModel,
  endpoint: Endpoint,
  signature: Signature,
): Signature {
  const expand = endpoint.expand;
  if (!expand) return signature;
  const name = pathsName(model);
  const paths: TypeExpr = { kind: "keyword", name };
  const typeParameter: TypeParameter = {
    name,
    isConst: true,
    constraint: generic("ReadonlyArray", union(expand.paths.map((p) => literalType(p)))),
    default: keyword("[]"),
  };
  const listMember: Member = {
    kind: "property-signature",
    name: expand.name,
    hasQuestionToken: true,
    type: paths,
  };
  const withList = (rest: TypeExpr | undefined): TypeExpr => {
    const list: TypeExpr = { kind: "object-type", members: [listMember], inline: true };
    return rest ? { kind: "intersection", types: [rest, list] } : list;
  };
  const params = signature.params.map((param): Param => {
    if (expand.in === "body" && param.name === "body")
      return { ...param, type: withList(generic("Omit", param.type!, literalType(expand.name))) };
    if (expand.in === "query" && isQueryArg(endpoint, param)) {
      const others = endpoint.params.filter((p) => !inPath(p) && p.name !== expand.name);
      const pick = others.length
        ? generic(
            "Pick",
            (param.type as TypeExpr & { kind: "generic" }).args[0]!,
            union(others.map((p) => literalType(p.name))),
          )
        : undefined;
      return { ...param, type: withList(pick) };
    }
    return param;
  });
  return {
    typeParameters: [typeParameter],
    params,
    returnType: expandedReturn(endpoint, expand, signature.returnType, paths),
  };
}

/** Whether `param` is the argument of the query and header parameters (`Pick<Params, ...>`). */
function isQueryArg(endpoint: Endpoint, param: Param): boolean {
  return (
    param.type?.kind === "generic" &&
    param.type.target.name === "Pick" &&
    endpoint.params.some((p) => !inPath(p))
  );
}

/** `ApiPromise<Expanded<Answer, Paths, Plan>>`; a paged call's items by the plan below the items' field. */
function expandedReturn(
  endpoint: Endpoint,
  expand: EndpointExpand,
  returnType: TypeExpr,
  paths: TypeExpr,
): TypeExpr {
  if (returnType.kind !== "generic") return returnType;
  const expanded = (type: TypeExpr, planPaths: readonly string[], prefix: string): TypeExpr => ({
    kind: "generic",
    target: runtimeType("client/expand.ts", "Expanded"),
    args: [type, paths, planType(planPaths), ...(prefix ? [literalType(prefix)] : [])],
  });
  const [data, ...rest] = returnType.args;
  const items = endpoint.pagination ? `${endpoint.pagination.items.join(".")}.` : undefined;
  const args = [expanded(data!, expand.paths, ""), ...rest];
  if (items && args[1]) {
    const below = expand.paths.filter((p) => p.startsWith(items)).map((p) => p.slice(items.length));
    args[1] = below.length ? expanded(args[1], below, items) : args[1];
  }
  return { ...returnType, args };
}

/** The plan of `paths` as a nested object type: `{ customer: true; charges: { card: true } }`. */
function planType(paths: readonly string[]): TypeExpr {
  const fields = new Map<string, string[]>();
  for (const path of paths) {
    const dot = path.indexOf(".");
    const head = dot < 0 ? path : path.slice(0, dot);
    const list = fields.get(head) ?? [];
    if (dot >= 0) list.push(path.slice(dot + 1));
    fields.set(head, list);
  }
  return {
    kind: "object-type",
    inline: true,
    members: [...fields].map(([name, below]) => ({
      kind: "property-signature",
      name,
      type: below.length ? planType(below) : literalType(true),
    })),
  };
}
