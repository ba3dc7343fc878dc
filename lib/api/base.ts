/** The API's base URL (NEXT_PUBLIC_API_BASE, default /api/), in a module of its own so tiny callers need no HTTP client. */
export function apiBase(): string {
  const base = process.env.NEXT_PUBLIC_API_BASE || '/api/';
  return base.endsWith('/') ? base : `${base}/`;
}
