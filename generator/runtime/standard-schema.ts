/**
 * Standard Schema v1 (https://standardschema.dev): every exported validator of the package is
 * one, so form libraries, tRPC-style routers and other tools that take zod or valibot take
 * apigen's validators as they are. The interface is declared here, as the standard asks of
 * libraries that implement it: the package keeps no dependency, and types that match are
 * the same type to TypeScript.
 */
import type { ValidationIssue, Validator } from "./validate.js";

/** The Standard Schema interface, version 1 (a copy of `@standard-schema/spec`'s). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  export interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  export interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  export interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  export interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  export interface PathSegment {
    readonly key: PropertyKey;
  }
  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<
    Schema["~standard"]["types"]
  >["input"];
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<
    Schema["~standard"]["types"]
  >["output"];
}

/**
 * The Standard Schema of a generated validator: `validate` gives the value back as it is, or
 * the validator's issues, each with its path as keys. Made by a pure call in the generated
 * `./validators` entry, so a bundle keeps it only where it is used.
 */
export function schema<T>(check: Validator): StandardSchemaV1<T> {
  return {
    "~standard": {
      version: 1,
      vendor: "apigen",
      validate: (value: unknown): StandardSchemaV1.Result<T> => {
        const issues: ValidationIssue[] = [];
        check(value, "", issues);
        if (issues.length === 0) return { value: value as T };
        return { issues: issues.map(({ message, path }) => ({ message, path: pathKeys(path) })) };
      },
    },
  };
}

/**
 * The keys of a validator's path (validate.ts `child`): `.name` and `["any key"]` are object
 * keys, `[0]` an array index, and the variant a tagged union chose (`<card>`, unions.ts) is
 * no key: `.items[0]<card>["a b"]` is `["items", 0, "a b"]`.
 */
export function pathKeys(path: string): PropertyKey[] {
  const keys: PropertyKey[] = [];
  const step = /\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|<[^>]*>/y;
  for (let m = step.exec(path); m; m = step.exec(path)) {
    if (m[1] !== undefined) keys.push(m[1]);
    else if (m[2] !== undefined) keys.push(Number(m[2]));
    else if (m[3] !== undefined) keys.push(JSON.parse(m[3]) as string);
  }
  return keys;
}

/** A validator's path as a JSON path from `$`: `$.items[0]["a b"]` (no variant marks). */
export function jsonPath(path: string): string {
  let out = "$";
  for (const key of pathKeys(path))
    out +=
      typeof key === "number"
        ? `[${key}]`
        : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key as string)
          ? `.${key as string}`
          : `[${JSON.stringify(key)}]`;
  return out;
}
