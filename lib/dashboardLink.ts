/**
 * The dashboard hand-off (spec sections 6, 7): the header opens /dashboard?token=home__<token> with a freshly
 * refreshed token; the dashboard takes the token out of the URL and keeps it as the auth token.
 */
export const DASHBOARD_TOKEN_PREFIX = 'home__';

export function dashboardUrl(token: string | null | undefined): string {
  return token ? `/dashboard?token=${DASHBOARD_TOKEN_PREFIX}${encodeURIComponent(token)}` : '/dashboard';
}

/** The token carried by `?token=home__<token>`, or null when there is none (or it is not ours). */
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
