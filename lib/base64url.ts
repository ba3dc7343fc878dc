/**
 * UTF-8 ⇄ URL-safe base64 (RFC 4648 §5, no padding) without btoa/atob or Buffer, so the same code runs in the
 * browser and on the server. btoa alone cannot take non-Latin-1 text (an e-mail or app title with "é" or "日本"),
 * hence the explicit UTF-8 step through TextEncoder/TextDecoder, which both environments have.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP: Record<string, number> = Object.fromEntries([...ALPHABET].map((c, i) => [c, i]));

export function encodeBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i];
    const b1 = i + 1 < bytes.length ? bytes[i + 1] : 0;
    const b2 = i + 2 < bytes.length ? bytes[i + 2] : 0;
    const triple = (b0 << 16) | (b1 << 8) | b2;
    out += ALPHABET[(triple >> 18) & 63] + ALPHABET[(triple >> 12) & 63];
    if (i + 1 < bytes.length) out += ALPHABET[(triple >> 6) & 63];
    if (i + 2 < bytes.length) out += ALPHABET[triple & 63];
  }
  return out;
}

export class Base64UrlError extends Error {}

/** Decodes URL-safe base64 (padding tolerated) to UTF-8 text; throws Base64UrlError on anything else. */
export function decodeBase64Url(input: string): string {
  const clean = input.replace(/=+$/, '');
  if (clean.length % 4 === 1) throw new Base64UrlError('not valid base64url: wrong length');
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let byteIndex = 0;
  for (let i = 0; i < clean.length; i += 4) {
    const chunk = clean.slice(i, i + 4);
    let bits = 0;
    for (let j = 0; j < 4; j += 1) {
      const ch = chunk[j];
      if (ch === undefined) {
        bits <<= 6;
        continue;
      }
      const v = LOOKUP[ch];
      if (v === undefined) throw new Base64UrlError(`not valid base64url: unexpected character "${ch}"`);
      bits = (bits << 6) | v;
    }
    const produced = chunk.length - 1; // 4 chars → 3 bytes, 3 → 2, 2 → 1
    if (produced >= 1) bytes[byteIndex++] = (bits >> 16) & 255;
    if (produced >= 2) bytes[byteIndex++] = (bits >> 8) & 255;
    if (produced >= 3) bytes[byteIndex++] = bits & 255;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, byteIndex));
  } catch {
    throw new Base64UrlError('not valid base64url: the bytes are not UTF-8');
  }
}
