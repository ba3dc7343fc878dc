/**
 * The claim cookie a connection made without an account sets (server/connect/claimCookie.ts), as a browser keeps and
 * sends it back: `claimCookieOf` is its value (the claim token), `claimCookieHeader` the Cookie header to send.
 */
const NAME = 'arb_connect_claim';

export function claimCookieOf(headers: Headers): string | null {
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(';');
    if (pair.startsWith(`${NAME}=`)) return pair.slice(NAME.length + 1) || null;
  }
  return null;
}

/** `Cookie: arb_connect_claim=…` from an answer's Set-Cookie (the previous one when the answer set none). */
export function claimCookieHeader(headers: Headers, previous?: string): string {
  const value = claimCookieOf(headers);
  return value ? `${NAME}=${value}` : (previous ?? '');
}
