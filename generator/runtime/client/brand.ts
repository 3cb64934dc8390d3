/**
 * `instanceof` that holds across copies of the package. Node can load a package twice in one
 * process: its CommonJS build for `require` and its ES module build for `import` (a CommonJS
 * dependency and an ES module app, say). Each copy has its own classes, so an error the one
 * copy throws would not be `instanceof` the other copy's class. Each class the package's users
 * test with `instanceof` carries a brand, a name in its static `"~brand"` property, and answers
 * `instanceof` for any value whose class, or a class it extends, carries the same brand. The
 * runtime's classes are branded `apigen:<class>`, the API's error class `<package name>:<class>`;
 * a class without a brand of its own (a user's subclass) is matched only as JavaScript does.
 *
 * The key is a string, not a `Symbol.for` symbol: a class member under a computed key has no
 * declaration TypeScript can make from its file alone (`isolatedDeclarations`, which `diff`
 * relies on). `~` sorts it after every other name in an editor's completions, as Standard
 * Schema's `~standard`.
 */

/** The static property that holds a class's brand. */
export const brandKey = "~brand";

/** A property's value where `target` has it as its own data property, else `undefined`: no getter runs. */
function ownValue(target: object, key: string): unknown {
  return Object.getOwnPropertyDescriptor(target, key)?.value;
}

/**
 * `value instanceof target` as JavaScript answers it, or else whether a class on the value's
 * prototype chain carries `target`'s own brand. Reads own properties only: no getter runs.
 */
export function isBranded(target: object, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(target, value)) return true;
  // The brand the class declares itself, not one it inherits.
  const wanted = ownValue(target, brandKey);
  // An object or a function has a prototype chain; a primitive has none of its own.
  if (typeof wanted !== "string" || Object(value) !== value) return false;
  // a chain JavaScript's own check above has just walked to its end
  for (let at = Object.getPrototypeOf(value); at !== null; at = Object.getPrototypeOf(at)) {
    const constructor = ownValue(at, "constructor");
    if (typeof constructor === "function" && ownValue(constructor, brandKey) === wanted)
      return true;
  }
  return false;
}
