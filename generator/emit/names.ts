/**
 * Names of generated symbols that more than one emitter refers to.
 */

/** `validateMoney`: the generated validator of a named type or parameters interface. */
export function validatorName(typeName: string): string {
  return `validate${typeName}`;
}
