/**
 * Strict standard base64 (RFC 4648 section 4, padded), for signature headers. Web-neutral:
 * no Buffer, no atob (which forgives missing padding, whitespace and stray bits).
 */

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const values: ReadonlyMap<string, number> = new Map([...alphabet].map((char, i) => [char, i]));

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
  if (text.length % 4 !== 0) return undefined;
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let bits = 0;
  let count = 0;
  let at = 0;
  for (let i = 0; i < text.length - padding; i++) {
    const value = values.get(text[i]!);
    if (value === undefined) return undefined;
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
