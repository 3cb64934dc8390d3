/**
 * Strict standard base64 (RFC 4648 section 4, padded), for signature headers. Web-neutral:
 * no Buffer, no atob (which forgives missing padding, whitespace and stray bits).
 */

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** Value of each ASCII character code in the alphabet, -1 for the rest: a lookup per character, no Map and no string of one character. */
const values = new Int8Array(128).fill(-1);
for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;

/** Encodes bytes as padded standard base64. */
export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const left = bytes.length - i;
    out += alphabet[(n >> 18) & 63]! + alphabet[(n >> 12) & 63]!;
    out += left > 1 ? alphabet[(n >> 6) & 63]! : "=";
    out += left > 2 ? alphabet[n & 63]! : "=";
  }
  return out;
}

/**
 * Decodes padded standard base64; `undefined` for anything else: a length that is not a
 * multiple of 4, a character outside the alphabet (`-`, `_`, whitespace), misplaced
 * padding, or non-zero bits after the last byte (a non-canonical encoding).
 */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  const length = text.length;
  if (length % 4 !== 0) return undefined;
  // "=" is char code 61; padding is at most two characters, and only at the end
  const padding =
    length > 0 && text.charCodeAt(length - 1) === 61
      ? text.charCodeAt(length - 2) === 61
        ? 2
        : 1
      : 0;
  const bytes = new Uint8Array((length / 4) * 3 - padding);
  let bits = 0;
  let count = 0;
  let at = 0;
  for (let i = 0; i < length - padding; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? values[code]! : -1;
    if (value < 0) return undefined;
    bits = (bits << 6) | value;
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes[at++] = (bits >> count) & 0xff;
      bits &= (1 << count) - 1;
    }
  }
  return bits === 0 ? bytes : undefined;
}
