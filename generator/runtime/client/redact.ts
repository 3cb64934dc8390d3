/**
 * Keeping credentials out of everything the client shows: error messages, error bodies and
 * headers, log lines. A server may echo a credential in another spelling, so each one is
 * matched character by character in every spelling that reads back as it: as is (in any
 * case), JSON-escaped (`\/`, `\u0073`, and escaped again: `\\u0073`), percent-encoded (`%2F`,
 * `+` for a space, the UTF-8 bytes of other characters: `%C3%A9`) and as an HTML character
 * reference (`&#47;`, `&#x2F;`).
 */

/** Shorter values are not redacted: blanking every "abc" of a text would hide more than it keeps. */
const minSecretLength = 4;

/**
 * One to eight backslashes: an escape, escaped again up to three times. Bounded, like the
 * zeros below, so that no text (a run of backslashes) makes a pattern backtrack for long.
 */
const backslashes = "\\\\{1,8}";

/**
 * The spellings of one character of a secret (a code point: one UTF-16 unit, or a surrogate
 * pair), as a regular expression group.
 */
function unitPattern(unit: string): string {
  const code = unit.charCodeAt(0);
  const hex = code.toString(16);
  const literal = unit.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
  const escaped = [...Array(unit.length).keys()]
    .map((i) => `${backslashes}u${unit.charCodeAt(i).toString(16).padStart(4, "0")}`)
    .join("");
  const spellings = [literal, escaped];
  if (unit === "/" || unit === '"' || unit === "\\") spellings.push(backslashes + literal);
  if (unit === " ") spellings.push("\\+");
  if (code < 0x80)
    spellings.push(`%${hex.padStart(2, "0")}`, `&#x0{0,8}${hex};`, `&#0{0,8}${code};`);
  else if (unit.length === 2 || code < 0xd800 || code > 0xdfff)
    // A URL's query or path holds it as its UTF-8 bytes (a lone surrogate has none).
    spellings.push(encodeURIComponent(unit));
  return `(?:${spellings.join("|")})`;
}

/** Longest spelling of one character: `&#x` or `&#`, eight zeros, its digits and `;`. */
const longestSpelling = 15;

/**
 * The pattern of one secret. With `cut`, the text is the first part of a longer one (an error
 * body cut at its size limit), and what may be a secret's start at its very end is matched
 * too: its first characters, then anything up to the end that could spell the rest (a
 * spelling may itself be cut short, `\u00`). The rest of the secret is gone, but its start
 * should not be shown either.
 */
function secretPattern(secret: string, cut: boolean): RegExp {
  const units = Array.from(secret, unitPattern);
  let source = units.join("");
  if (cut)
    source += `|${units.slice(0, minSecretLength).join("")}[^]{0,${longestSpelling * secret.length}}$`;
  return new RegExp(source, "gi");
}

/**
 * A function that redacts every spelling of every secret (long enough to redact) from a
 * text. Built where a text is about to be shown, never on a call's way to success.
 */
export function redactor(secrets: readonly string[], cut = false): (text: string) => string {
  const patterns = secrets
    .filter((s) => s.length >= minSecretLength)
    .map((s) => secretPattern(s, cut));
  return (text) => {
    let out = text;
    for (const pattern of patterns) out = out.replace(pattern, "[redacted]");
    return out;
  };
}

/** `text` with every spelling of every secret replaced by `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  return redactor(secrets)(text);
}

/**
 * A copy of response headers fit to keep in an error: each value redacted, and a header
 * whose name spells a secret (header names are lower-cased on the way) left out.
 */
export function redactHeaders(headers: Headers, secrets: readonly string[]): Headers {
  const clean = redactor(secrets);
  const out = new Headers();
  headers.forEach((value, name) => {
    if (clean(name) === name) out.append(name, clean(value));
  });
  return out;
}
