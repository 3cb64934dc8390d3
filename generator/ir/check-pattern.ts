/**
 * Checks of a spec's `pattern`: the generated validators compile it with `new RegExp` and run
 * it on input from the network, so a pattern that does not compile is an error here (not a
 * SyntaxError in the user's process at the first request), and a pattern that can take
 * exponential time on a hostile string is a warning.
 */

/** A JavaScript regular expression's syntax error for `pattern`, or undefined when it compiles. */
export function patternSyntaxError(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
  }
}

/** Whether the text at `i` is a quantifier that repeats without bound: `*`, `+`, `{n,}`. */
function unboundedQuantifierAt(pattern: string, i: number): boolean {
  const c = pattern[i];
  return c === "*" || c === "+" || (c === "{" && /^\{\d+,\}/.test(pattern.slice(i)));
}

/**
 * Whether `pattern` repeats without bound a group that itself repeats without bound, such as
 * `(a+)+` or `(\w*,?)*`: the classic shape of catastrophic backtracking. A heuristic (it
 * misses overlapping alternations such as `(a|a)*`), so it only warns.
 */
export function hasNestedQuantifier(pattern: string): boolean {
  /** Per open group: whether an unbounded quantifier was seen inside it. */
  const groups: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "(") groups.push(false);
    else if (c === ")") {
      const inner = groups.pop() ?? false;
      if (inner && unboundedQuantifierAt(pattern, i + 1)) return true;
      if (inner && groups.length > 0) groups[groups.length - 1] = true;
    } else if (unboundedQuantifierAt(pattern, i) && groups.length > 0)
      groups[groups.length - 1] = true;
  }
  return false;
}
