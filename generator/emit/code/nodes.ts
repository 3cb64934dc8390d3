/**
 * The code model: the part of TypeScript the generated package is written in, as plain data.
 * Emitters build these nodes and `printSourceFile` turns them into final text. A `Ref` names
 * a symbol together with the file that declares it, so a file's imports are whatever its
 * nodes refer to: no emitter writes an import, and none is found afterwards in the text.
 *
 * The declaration shapes follow ts-morph's structures (`name`, `isExported`, `docs`,
 * `properties`, `hasQuestionToken`, ...), so they read as those do; the printer is our own,
 * because loading TypeScript to print would cost more than the rest of a run.
 */

/** A symbol of the generated package (or a global, with no `module`). */
export interface Ref {
  readonly kind: "ref";
  readonly name: string;
  /** Output path of the declaring file, e.g. `src/types.ts`; absent for globals such as `Promise`. */
  readonly module?: string;
  /** Declared as a type only: imported with `type`. */
  readonly isType: boolean;
}

// ---- types ----

export type TypeExpr =
  | Ref
  | { readonly kind: "keyword"; readonly name: string }
  | { readonly kind: "generic"; readonly target: Ref; readonly args: readonly TypeExpr[] }
  | { readonly kind: "array"; readonly items: TypeExpr }
  | { readonly kind: "union"; readonly types: readonly TypeExpr[] }
  | { readonly kind: "intersection"; readonly types: readonly TypeExpr[] }
  | { readonly kind: "literal-type"; readonly value: string | number | boolean }
  | {
      readonly kind: "object-type";
      readonly members: readonly Member[];
      /** On one line where it fits; by default one member per line, which prettier keeps so. */
      readonly inline?: boolean;
    }
  | {
      readonly kind: "function-type";
      readonly typeParameters?: readonly TypeParameter[];
      readonly params: readonly Param[];
      readonly returns: TypeExpr;
      /** `new (...) => R`: the type of a class. */
      readonly isConstructor?: boolean;
    }
  | { readonly kind: "typeof"; readonly target: Ref }
  | { readonly kind: "keyof"; readonly type: TypeExpr }
  | { readonly kind: "indexed"; readonly object: TypeExpr; readonly index: TypeExpr }
  | { readonly kind: "paren-type"; readonly type: TypeExpr };

/** A member of an interface or object type. */
export type Member =
  /**
   * `(a: A): R`, one signature of a function's type; with a name, `name(a: A): R`, a method
   * of an interface. Several of one name (or unnamed in one type) are overloads.
   */
  | {
      readonly kind: "call-signature";
      readonly name?: string;
      readonly typeParameters?: readonly TypeParameter[];
      readonly params: readonly Param[];
      readonly returnType: TypeExpr;
      readonly docs?: readonly string[];
    }
  | {
      readonly kind: "property-signature";
      /** As written on the wire; quoted when it is not an identifier. */
      readonly name: string;
      readonly hasQuestionToken?: boolean;
      readonly isReadonly?: boolean;
      readonly type: TypeExpr;
      readonly docs?: readonly string[];
    }
  | {
      readonly kind: "index-signature";
      readonly isReadonly?: boolean;
      readonly keyName: string;
      readonly keyType: TypeExpr;
      readonly returnType: TypeExpr;
      readonly docs?: readonly string[];
    };

/** `const E extends readonly Path[] = []`: a type parameter of a declaration or signature. */
export interface TypeParameter {
  readonly name: string;
  readonly isConst?: boolean;
  readonly constraint?: TypeExpr;
  readonly default?: TypeExpr;
}

/** A parameter of a function, method, constructor or function type. */
export interface Param {
  readonly name: string;
  readonly type?: TypeExpr;
  readonly hasQuestionToken?: boolean;
  /** Constructor parameter properties: `private readonly core: Core`. */
  readonly scope?: "private" | "protected" | "public";
  readonly isReadonly?: boolean;
}

// ---- expressions ----

export type Expr =
  | Ref
  | { readonly kind: "id"; readonly name: string }
  | { readonly kind: "literal"; readonly value: string | number | boolean | null }
  | {
      readonly kind: "object";
      readonly properties: readonly ObjectProperty[];
      /** One property per line even where it would fit: prettier keeps an object so. */
      readonly expanded?: boolean;
    }
  | { readonly kind: "array-literal"; readonly items: readonly Expr[] }
  | {
      readonly kind: "call";
      readonly callee: Expr;
      readonly args: readonly Expr[];
      /** `new Callee(...)`. */
      readonly isNew?: boolean;
      /** Marked `/* @__PURE__ *\/` for bundlers. */
      readonly pure?: boolean;
    }
  | { readonly kind: "member"; readonly object: Expr; readonly name: string }
  | {
      readonly kind: "assign";
      readonly target: Expr;
      readonly operator: "=" | "??=";
      readonly value: Expr;
    }
  | { readonly kind: "paren"; readonly expr: Expr }
  | { readonly kind: "as-const"; readonly expr: Expr }
  | { readonly kind: "await"; readonly expr: Expr }
  | {
      readonly kind: "arrow";
      readonly isAsync?: boolean;
      readonly params: readonly Param[];
      readonly returnType?: TypeExpr;
      /** A block of statements, or one expression. */
      readonly body: readonly Statement[] | Expr;
    };

export type ObjectProperty =
  | {
      readonly kind: "property";
      /** A name (quoted unless it is an identifier), or a number written as it is. */
      readonly key: string | number;
      readonly value: Expr;
      /** A doc comment above the property (which breaks the object). */
      readonly docs?: readonly string[];
    }
  | { readonly kind: "shorthand"; readonly name: string }
  | { readonly kind: "spread"; readonly expr: Expr };

// ---- statements ----

export type Statement =
  | { readonly kind: "comment"; readonly text: string }
  /** A doc comment of its own, such as a file's. */
  | { readonly kind: "doc-comment"; readonly lines: readonly string[] }
  | {
      readonly kind: "interface";
      readonly name: string;
      readonly typeParameters?: readonly TypeParameter[];
      readonly isExported?: boolean;
      readonly docs?: readonly string[];
      readonly extends?: readonly TypeExpr[];
      readonly members: readonly Member[];
    }
  | {
      readonly kind: "type-alias";
      readonly name: string;
      readonly typeParameters?: readonly TypeParameter[];
      readonly isExported?: boolean;
      readonly docs?: readonly string[];
      readonly type: TypeExpr;
    }
  | {
      readonly kind: "function";
      readonly name: string;
      readonly isExported?: boolean;
      readonly docs?: readonly string[];
      /** Signatures printed before the implementation, each with its own doc comment. */
      readonly overloads?: readonly Overload[];
      readonly params: readonly Param[];
      readonly returnType?: TypeExpr;
      readonly body: readonly Statement[];
    }
  | ClassDeclaration
  | {
      readonly kind: "variable";
      readonly declarationKind: "const" | "let";
      readonly name: string;
      readonly isExported?: boolean;
      readonly docs?: readonly string[];
      readonly type?: TypeExpr;
      readonly init?: Expr;
    }
  | { readonly kind: "expression-statement"; readonly expr: Expr }
  | { readonly kind: "return"; readonly expr: Expr }
  | { readonly kind: "throw"; readonly expr: Expr }
  | ExportFrom
  | ImportFrom;

/**
 * An import written out, for code outside the generated package (a README example, the
 * handler scaffold) that imports a package by its name; generated files never need one.
 */
export interface ImportFrom {
  readonly kind: "import-from";
  readonly specifier: string;
  /** `import name from`. */
  readonly defaultName?: string;
  readonly names?: readonly { readonly name: string; readonly isType: boolean }[];
  readonly isTypeOnly?: boolean;
}

/** `export { a, type B } from "./m.js"`, `export type { ... }`, `export * from`, `export type * from`. */
export interface ExportFrom {
  readonly kind: "export-from";
  /** Output path of the module re-exported from. */
  readonly module: string;
  /** Names re-exported; absent: `*`. */
  readonly names?: readonly { readonly name: string; readonly isType: boolean }[];
  /** `export type ...`: every name is a type. */
  readonly isTypeOnly?: boolean;
}

export interface ClassDeclaration {
  readonly kind: "class";
  readonly name: string;
  readonly isExported?: boolean;
  readonly docs?: readonly string[];
  readonly extends?: Expr;
  readonly properties?: readonly ClassProperty[];
  readonly ctor?: { readonly params: readonly Param[]; readonly body: readonly Statement[] };
  readonly methods?: readonly ClassMethod[];
}

export interface ClassProperty {
  /** The property's name: an identifier as it is, any other quoted (`"~brand"`). */
  readonly name: string;
  /** `static`: a property of the class itself. */
  readonly isStatic?: boolean;
  readonly type?: TypeExpr;
  readonly init?: Expr;
  readonly isReadonly?: boolean;
  readonly hasOverrideKeyword?: boolean;
  /** `declare`: narrows the type of a property the base class sets, without a field of its own. */
  readonly isDeclare?: boolean;
  readonly docs?: readonly string[];
}

/**
 * An overload signature of a function or method (`f(a: A): R;`), printed right above the
 * implementation: callers see the overloads, never the implementation's own signature.
 */
export interface Overload {
  readonly docs?: readonly string[];
  readonly params: readonly Param[];
  readonly returnType: TypeExpr;
}

export interface ClassMethod {
  readonly name: string;
  readonly docs?: readonly string[];
  /** Signatures printed before the implementation, each with its own doc comment. */
  readonly overloads?: readonly Overload[];
  readonly params: readonly Param[];
  readonly returnType?: TypeExpr;
  readonly body: readonly Statement[];
}

/** A top-level statement and whether a blank line separates it from the one before. */
export interface FileStatement {
  readonly statement: Statement;
  /** Printed right under the statement before, with no blank line. */
  readonly tight?: boolean;
}
