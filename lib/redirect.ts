/**
 * `redirect_to` comes from the URL, so it is attacker-controlled: only a path on this site may come out of here.
 * Anything that a browser could read as another origin (protocol-relative `//host`, `/\host`, absolute URLs,
 * `javascript:`), that becomes one once dot segments are resolved (`/.//host`, `/a/..//host`, `/%2e%2e//host`), or
 * that hides such a thing behind percent-encoding, control characters or whitespace, is dropped.
 */
const PROBE_ORIGIN = 'https://arb.invalid';
// Browsers strip tabs/newlines inside URLs and treat "\" like "/", which turns "/\t/evil" or "/\evil" into "//evil".
const UNSAFE_CHARS = /[\u0000-\u0020\u007f-\u009f\\\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/;
const MAX_DECODE_ROUNDS = 3;

function looksSafe(candidate: string): boolean {
  if (!candidate.startsWith('/') || candidate.startsWith('//')) return false;
  return !UNSAFE_CHARS.test(candidate);
}

/**
 * The path as a browser resolves it (WHATWG URL: dot segments, `%2e`), when that is still a path on this site; null
 * otherwise. `/.//evil.example` resolves to `//evil.example`, which as a link or a Location header is another host.
 */
function resolvedLocally(candidate: string): URL | null {
  if (!looksSafe(candidate)) return null;
  let url: URL;
  try {
    url = new URL(candidate, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname.startsWith('//')) return null;
  return url;
}

/**
 * Every percent-decoding of the path must look like a local path too, so `/%2F%2Fevil` and `/%5Cevil` fail (a proxy
 * or a later redirect may decode them). The query and hash may hold encoded text such as `%20`: they cannot change
 * where the path points.
 */
function decodedVariantsLookSafe(value: string): boolean {
  let current = value.split(/[?#]/)[0];
  for (let round = 0; round < MAX_DECODE_ROUNDS; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return false; // malformed escapes: nobody sends those by accident
    }
    if (next === current) return true;
    if (!resolvedLocally(next)) return false;
    current = next;
  }
  // Still changing after several rounds: layered encoding is an attack, not a link.
  return false;
}

/** A same-site path (with its query and hash) to send the user to, or `fallback`. */
export function sanitizeRedirect(raw: unknown, fallback = '/'): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return fallback;
  const url = resolvedLocally(value);
  if (!url || !decodedVariantsLookSafe(value)) return fallback;
  // What comes out is checked too: resolving `/./%2f..` leaves `/%2f..`, which decodes to `//..`.
  if (!decodedVariantsLookSafe(url.pathname)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where a sign-in lands when nothing asks for another page (docs/PRODUCT.md, Sign-in and the dashboard). */
export const SIGNED_IN_HOME = '/dashboard';

/**
 * Where a sign-in (code, invitation accept) goes next: the sanitized `redirect_to`, else the dashboard. The home page
 * itself (`/`, no query or hash: what the header's Login link carries from there) asks for nothing in particular, so
 * it lands on the dashboard too; `/?app_id=…` or any other page is honoured.
 */
export function afterSignIn(raw: unknown): string {
  const target = sanitizeRedirect(raw, SIGNED_IN_HOME);
  return target === '/' ? SIGNED_IN_HOME : target;
}

type Query = Record<string, string | string[] | undefined>;

/**
 * The header's Login link: it carries the current path and query as redirect_to, except when the page already has a
 * redirect_to (e.g. the visitor came from a protected page), which is passed on unchanged.
 */
export function loginHref(asPath: string, query: Query): string {
  const existing = query.redirect_to;
  const target = typeof existing === 'string' ? existing : Array.isArray(existing) ? existing[0] : asPath.split('#')[0] || '/';
  return `/login?${new URLSearchParams({ redirect_to: target }).toString()}`;
}
