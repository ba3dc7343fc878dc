/**
 * Serves the real API route files (pages/api/**) on a loopback port without Next, for API tests:
 * the file system is the route table, exactly as Next reads it ([param] segments, index files).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

type Route = { pattern: RegExp; names: string[]; catchAll: boolean[]; file: string; path: string };

function collect(dir: string, prefix = ''): Route[] {
  const out: Route[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...collect(full, `${prefix}/${entry.name}`));
      continue;
    }
    if (!/\.tsx?$/.test(entry.name)) continue;
    const base = entry.name.replace(/\.tsx?$/, '');
    const segs = `${prefix}${base === 'index' ? '' : `/${base}`}`.split('/').filter(Boolean);
    const names: string[] = [];
    const catchAll: boolean[] = [];
    const re = segs
      .map((s, i) => {
        // [id], [...path], and the optional catch-all [[...path]] (which also matches nothing at all).
        const m = /^\[(\[)?(\.\.\.)?(\w+)\]?\]$/.exec(s);
        if (!m) return `${i ? '/' : ''}${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
        names.push(m[3]);
        catchAll.push(!!m[2]);
        if (m[1]) return `(?:${i ? '/' : ''}(.+))?`;
        return `${i ? '/' : ''}${m[2] ? '(.+)' : '([^/]+)'}`;
      })
      .join('');
    out.push({ pattern: new RegExp(`^/api/${re}/?$`), names, catchAll, file: full, path: `/api/${segs.join('/')}` });
  }
  // Static segments win over dynamic ones, as in Next.
  return out.sort((a, b) => a.names.length - b.names.length);
}

export type TestApi = { url: string; close: () => Promise<void> };

export async function startTestApi(root = path.resolve(__dirname, '../../pages/api')): Promise<TestApi> {
  const routes = collect(root);
  // Static files by path (with or without a trailing slash): one lookup instead of every pattern, as the benchmark's
  // default mode serves the API through this helper.
  const exact = new Map<string, Route>();
  for (const r of routes) {
    if (r.names.length) continue;
    exact.set(r.path, r);
    exact.set(`${r.path}/`, r);
  }
  const cache = new Map<string, (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>>();
  const server = http.createServer(async (req, res) => {
    const raw = req.url ?? '/';
    // A plain path (no escapes, dot segments or fragment) needs none of the URL parser's normalising.
    const q = raw.indexOf('?');
    const plain = /^(?:\/[\w-][\w.-]*)*\/?$/.test(q === -1 ? raw : raw.slice(0, q)) && !raw.includes('#');
    const url = plain ? { pathname: q === -1 ? raw : raw.slice(0, q), searchParams: new URLSearchParams(q === -1 ? '' : raw.slice(q + 1)) } : new URL(raw, 'http://localhost');
    const found = exact.get(url.pathname);
    for (const r of found ? [found] : routes) {
      const m = r.pattern.exec(url.pathname);
      if (!m) continue;
      let handler = cache.get(r.file);
      if (!handler) {
        handler = ((await import(r.file)) as { default: typeof handler }).default!;
        cache.set(r.file, handler);
      }
      // As Next does: dynamic segments join the query string in req.query; a catch-all is an array of segments.
      const query: Record<string, string | string[]> = Object.fromEntries(url.searchParams);
      r.names.forEach((n, i) => {
        const value = m[i + 1];
        if (value === undefined) return;
        query[n] = r.catchAll[i] ? value.split('/').map(decodeURIComponent) : decodeURIComponent(value);
      });
      (req as http.IncomingMessage & { query: Record<string, string | string[]> }).query = query;
      await handler(req, res);
      return;
    }
    res.statusCode = 404;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ error: { code: 'not_found', message: `No API route for ${url.pathname}` } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
