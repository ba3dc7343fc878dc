/** The query string and path parameters of an API request, as plain records (server/http/api.ts). */

/** Next's req.query without the names whose value is undefined. */
export function definedValues(q: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(q)) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * The query string of a request URL as `Object.fromEntries(new URL(url, base).searchParams)` gives it (the last value
 * of a repeated name wins), without building URL objects for the usual query that has nothing to decode.
 */
export function queryOf(url: string): Record<string, string> {
  const q = url.indexOf('?');
  if (q === -1) return {};
  const search = url.slice(q + 1);
  // Escapes and '+' need decoding, and a '#' ends the query for the URL parser: those take the standard path.
  if (/[%+#]/.test(search)) return Object.fromEntries(new URL(url, 'http://localhost').searchParams);
  const out: Record<string, string> = {};
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    // Assigning "__proto__" would set the prototype instead of a field.
    if (name === '__proto__') return Object.fromEntries(new URL(url, 'http://localhost').searchParams);
    out[name] = eq === -1 ? '' : pair.slice(eq + 1);
  }
  return out;
}
