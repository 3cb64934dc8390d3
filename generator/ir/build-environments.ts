/**
 * `environments:` of the spec: each environment's address and the variables it has
 * (`https://{subdomain}.example.com`, OpenAPI's server variables), checked where they are
 * written: every `{name}` of an address is a declared variable and every variable is in its
 * address, a default is one of the listed values, and no default or listed value is one the
 * client would refuse in its place (runtime/client/environments.ts, variableValueProblem).
 */
import {
  addressProblem,
  addressVariables,
  variableValueProblem,
} from "../runtime/client/environments.ts";
import type { SpecFile } from "../load/spec-file.ts";
import { isRecord, type BuildContext } from "./build-context.ts";
import type { Decl } from "./merge.ts";
import type { Environment, ServerVariable } from "./model.ts";

/** The environments, in spec order. */
export function environmentsOf(ctx: BuildContext, decls: readonly Decl[]): Environment[] {
  return decls.map((d) => {
    const baseUrl = typeof d.value.baseUrl === "string" ? d.value.baseUrl : undefined;
    const variables = variablesOf(ctx, d, baseUrl);
    const problem = baseUrl === undefined ? undefined : addressProblem(baseUrl);
    if (problem)
      ctx.bag.report(
        "environment-url-invalid",
        { environment: d.name, problem },
        d.file.locate([...d.path, "baseUrl"]),
      );
    return {
      name: d.name,
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      variables,
      docs: ctx.docs(d.file, d.path, d.value),
      location: d.file.locate(d.path, "key"),
    };
  });
}

function variablesOf(ctx: BuildContext, d: Decl, baseUrl: string | undefined): ServerVariable[] {
  const declared = isRecord(d.value.variables) ? d.value.variables : {};
  const used = baseUrl === undefined ? [] : addressVariables(baseUrl);
  for (const { name } of used.filter(({ name }) => !Object.hasOwn(declared, name)))
    ctx.bag.report(
      "server-variable-unknown",
      { name, environment: d.name },
      d.file.locate([...d.path, "baseUrl"]),
    );
  return Object.entries(declared).map(([name, raw]) => {
    const path = [...d.path, "variables", name];
    const value = isRecord(raw) ? raw : {};
    const places = used.filter((u) => u.name === name);
    if (!places.length)
      ctx.bag.report(
        "server-variable-unused",
        { name, environment: d.name },
        d.file.locate(path, "key"),
      );
    const inHost = places.some((place) => place.inHost);
    const variable: ServerVariable = {
      name,
      docs: ctx.docs(d.file, path, { ...value, default: undefined }),
      location: d.file.locate(path, "key"),
    };
    const values = Array.isArray(value.enum) ? value.enum.map(String) : undefined;
    if (values) {
      variable.enum = values;
      values.forEach((v, i) => checkValue(ctx, d.file, [...path, "enum", i], name, v, inHost));
    }
    if (typeof value.default === "string") {
      variable.default = value.default;
      if (values && !values.includes(value.default))
        ctx.bag.report(
          "server-variable-default",
          { name, value: JSON.stringify(value.default), values: values.join(", ") },
          d.file.locate([...path, "default"]),
        );
      else checkValue(ctx, d.file, [...path, "default"], name, value.default, inHost);
    }
    return variable;
  });
}

/** A default or listed value the client would refuse in the variable's place. */
function checkValue(
  ctx: BuildContext,
  file: SpecFile,
  path: (string | number)[],
  name: string,
  value: string,
  inHost: boolean,
): void {
  const problem = variableValueProblem(value, inHost);
  if (problem)
    ctx.bag.report(
      "server-variable-value",
      { name, value: JSON.stringify(value), problem, place: inHost ? "host" : "path" },
      file.locate(path),
    );
}
