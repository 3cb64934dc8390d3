/**
 * From a spec file's bytes to its text: strict UTF-8 (a byte that is not UTF-8 is reported at
 * its line and column, never turned into U+FFFD), a leading byte order mark dropped, every line
 * end made LF, and no control characters, which YAML does not allow in a document and which
 * would otherwise reach the generated comments and README.
 */
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import { LineIndex } from "./line-index.ts";

const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

/**
 * Characters YAML 1.2 excludes from a document (its c-printable set): C0 controls but tab,
 * line feed and carriage return; DEL; C1 controls but NEL; U+FFFE and U+FFFF.
 */
export const controlCharacter =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F\uFFFE\uFFFF]/;

/**
 * Half of a UTF-16 surrogate pair without its other half. UTF-8 text cannot hold one, but a
 * YAML escape can (`"\uD800"`): it is no character, and each place it reaches prints it
 * differently (U+FFFD in a file, an escape in a string literal), so it is refused.
 */
export const loneSurrogate =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The text with every line end (CRLF, and CR alone, both YAML 1.2 line breaks) made LF, which
 * YAML makes of a line break inside a scalar too, so the data is the same. Done before
 * anything reads the text: the two readings disagreed on CR alone (js-yaml took it as a line
 * end, the `yaml` package as part of a line, which made a file one long comment), and so did
 * line numbers, which count LFs.
 */
export function plainLineEnds(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/** `U+0001`: how a character is named in messages. */
export function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The length of the UTF-8 sequence a lead byte starts, and the range its second byte must be
 * in (narrower after E0, ED, F0 and F4, which rules out overlong forms and surrogates);
 * undefined for a byte that cannot start one.
 */
function sequenceOf(
  lead: number,
): readonly [length: number, low: number, high: number] | undefined {
  if (lead < 0x80) return [1, 0, 0];
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf];
  if (lead === 0xed) return [3, 0x80, 0x9f];
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f];
  return undefined;
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence, or -1. */
function firstInvalidByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const sequence = sequenceOf(bytes[i]!);
    if (sequence === undefined) return i;
    const [length, low, high] = sequence;
    for (let k = 1; k < length; k++) {
      const byte = bytes[i + k];
      if (byte === undefined || byte < (k === 1 ? low : 0x80) || byte > (k === 1 ? high : 0xbf))
        return i;
    }
    i += length;
  }
  return -1;
}

/**
 * The text of a spec file, or undefined when it is not UTF-8 or holds a control character
 * (reported at its place). The text is returned for code frames either way.
 */
export function specText(
  file: string,
  bytes: Uint8Array,
  bag: DiagnosticBag,
): { text: string; ok: boolean } {
  let text: string;
  try {
    text = plainLineEnds(strict.decode(bytes));
  } catch {
    const at = firstInvalidByte(bytes);
    const before = plainLineEnds(lenient.decode(bytes.subarray(0, at)));
    const byte = bytes[at]!.toString(16).toUpperCase().padStart(2, "0");
    bag.report("spec-not-utf8", { byte }, new LineIndex(file, before).at(before.length));
    return { text: plainLineEnds(lenient.decode(bytes)), ok: false };
  }
  const control = controlCharacter.exec(text);
  if (control) {
    bag.report(
      "yaml-control-character",
      { char: codePointName(control[0]) },
      new LineIndex(file, text).at(control.index),
    );
    return { text, ok: false };
  }
  return { text, ok: true };
}
