/**
 * The dashboard hand-off (docs/PRODUCT.md, Sign-in and the dashboard): the header asks for a one-time code (GET v1/auth/token/refresh) and
 * opens /dashboard?token=home__<code>; the dashboard removes the code from the address bar before anything else can
 * read it (analytics included), then exchanges it once by POST for the session's tokens. The code is worthless after
 * that, or after 60 seconds.
 */
const DASHBOARD_TOKEN_PREFIX = 'home__';

export function dashboardUrl(code: string | null | undefined): string {
  return code ? `/dashboard?token=${DASHBOARD_TOKEN_PREFIX}${encodeURIComponent(code)}` : '/dashboard';
}

/** The code carried by `?token=home__<code>`, or null when there is none (or it is not ours). */
export function tokenFromDashboardParam(raw: unknown): string | null {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string' || !value.startsWith(DASHBOARD_TOKEN_PREFIX)) return null;
  const token = value.slice(DASHBOARD_TOKEN_PREFIX.length).trim();
  return token || null;
}

/** The current URL without its `token` parameter, for history.replaceState. */
export function urlWithoutToken(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('token');
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Takes the hand-off code out of the current address (history.replaceState) and returns it. Run before any page view
 * is recorded: a code in the URL would otherwise reach analytics with the first one.
 */
export function takeCodeFromAddressBar(): string | null {
  if (typeof window === 'undefined') return null;
  const code = tokenFromDashboardParam(new URL(window.location.href).searchParams.get('token'));
  if (new URL(window.location.href).searchParams.has('token')) {
    window.history.replaceState(window.history.state, '', urlWithoutToken(window.location.href));
  }
  return code;
}
