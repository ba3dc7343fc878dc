/**
 * The prerendered pages of the Next build (marketing pages, blog posts, the app's static shells) answered from memory,
 * ahead of Next, with the bytes and headers Next would send.
 *
 * Why: Next's request pipeline costs ~10× a bare server for a page that is a file on disk (bench/static-page.mjs), and
 * it gzips that file again on every request. Here each page is read once at start, its gzip made once, and a request
 * costs a map lookup and one writeHead.
 *
 * What keeps it the same as Next (tests/e2e/static-pages.spec.ts compares both, page by page):
 *  - only pages Next itself serves as files: automatic static pages and getStaticProps pages without revalidation;
 *  - the headers come from the build's routes manifest (next.config.js headers()), the ETag from Next's own function,
 *    `Cache-Control: s-maxage=31536000` on getStaticProps pages as Next sends it;
 *  - only exact paths, GET and HEAD; a path a redirect matches, preview-mode cookies, and a build with middleware,
 *    rewrites, a base path or header rules beyond the catch-all all go to Next (the last ones switch this off).
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { generateETag } from 'next/dist/server/lib/etag';
import { log } from '../log';
import type { PageCsp } from './scriptHashes';

type Page = { html: Buffer; gzip: Buffer; etag: string; headers: string[]; headersGzip: string[]; headers304: string[] };

export type StaticPages = {
  /** True when the request was answered. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  paths: string[];
};

type RoutesManifest = {
  basePath?: string;
  headers?: Array<{ source: string; headers: Array<{ key: string; value: string }> }>;
  redirects?: Array<{ regex: string }>;
  rewrites?: unknown;
};

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;

const NONE: StaticPages = { handle: () => false, paths: [] };

/** Why this build's pages must all go through Next, or null. */
function unsupported(distDir: string, routes: RoutesManifest): string | null {
  if (routes.basePath) return 'a basePath is set';
  const rewrites = routes.rewrites;
  const anyRewrite = Array.isArray(rewrites) ? rewrites.length > 0 : Object.values((rewrites ?? {}) as Record<string, unknown[]>).some((r) => r.length > 0);
  if (anyRewrite) return 'the build has rewrites';
  if ((routes.headers ?? []).some((h) => h.source !== '/:path*')) return 'next.config has header rules beyond /:path*';
  const middleware = readJson<{ middleware?: Record<string, unknown> }>(path.join(distDir, 'server/middleware-manifest.json'));
  if (Object.keys(middleware.middleware ?? {}).length > 0) return 'the build has middleware';
  return null;
}

/**
 * Reads the build in `distDir` (an absolute path). Any surprise in the build means: no fast path, everything to Next.
 * `pageCsp` gives the Content-Security-Policy the pages go out with (the build's, with the inline scripts' hashes), as
 * server/main.ts makes Next send it too.
 */
export function loadStaticPages(distDir: string, pageCsp: PageCsp = (csp) => csp): StaticPages {
  try {
    const routes = readJson<RoutesManifest>(path.join(distDir, 'routes-manifest.json'));
    const why = unsupported(distDir, routes);
    if (why) {
      log.info('prerendered pages are served by Next', { reason: why });
      return NONE;
    }
    const common = (routes.headers ?? []).flatMap((h) =>
      h.headers.flatMap(({ key, value }) => [key, key.toLowerCase() === 'content-security-policy' ? pageCsp(value) : value]),
    );
    const redirects = (routes.redirects ?? []).map((r) => new RegExp(r.regex));

    // path → [file, is a getStaticProps page]
    const files = new Map<string, [string, boolean]>();
    const prerender = readJson<{ routes: Record<string, { initialRevalidateSeconds: number | false }> }>(path.join(distDir, 'prerender-manifest.json'));
    for (const [route, r] of Object.entries(prerender.routes)) {
      if (r.initialRevalidateSeconds !== false) continue; // revalidated pages change: Next keeps them
      files.set(route, [path.join(distDir, 'server/pages', `${route === '/' ? '/index' : route}.html`), true]);
    }
    const manifest = readJson<Record<string, string>>(path.join(distDir, 'server/pages-manifest.json'));
    for (const [route, file] of Object.entries(manifest)) {
      if (file.endsWith('.html') && !files.has(route)) files.set(route, [path.join(distDir, 'server', file), false]);
    }

    const pages = new Map<string, Page>();
    for (const [route, [file, ssg]] of files) {
      // Error pages answer with their own status and API paths are never pages; a redirect wins over a page in Next.
      if (route === '/404' || route === '/500' || route.startsWith('/_') || route.startsWith('/api/')) continue;
      if (redirects.some((re) => re.test(route)) || !fs.existsSync(file)) continue;
      const html = fs.readFileSync(file);
      const etag = generateETag(html.toString('utf8'));
      const cache = ssg ? ['Cache-Control', 's-maxage=31536000'] : [];
      const base = [...common, ...cache, 'ETag', etag, 'Content-Type', 'text/html; charset=utf-8', 'Vary', 'Accept-Encoding'];
      const gzip = gzipSync(html);
      pages.set(route, {
        html,
        gzip,
        etag,
        headers: [...base, 'Content-Length', String(html.length)],
        headersGzip: [...base, 'Content-Encoding', 'gzip', 'Content-Length', String(gzip.length)],
        headers304: [...common, ...cache, 'ETag', etag],
      });
    }
    log.info('prerendered pages served from memory', { pages: pages.size });
    return { handle: (req, res) => answer(pages, req, res), paths: [...pages.keys()] };
  } catch (err) {
    log.warn('prerendered pages are served by Next: the build could not be read', { err });
    return NONE;
  }
}

/** Next's preview mode renders pages per request: such requests are Next's. */
const PREVIEW_COOKIE = /(?:^|;\s*)(?:__prerender_bypass|__next_preview_data)=/;

function answer(pages: Map<string, Page>, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const page = pages.get(q === -1 ? url : url.slice(0, q));
  if (!page) return false;
  const cookie = req.headers.cookie;
  if (cookie && PREVIEW_COOKIE.test(cookie)) return false;

  if (notModified(req.headers['if-none-match'], page.etag)) {
    res.writeHead(304, page.headers304);
    res.end();
    return true;
  }
  if (req.method === 'HEAD') {
    // Next describes the uncompressed page to HEAD whatever the client accepts.
    res.writeHead(200, page.headers);
    res.end();
    return true;
  }
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  res.writeHead(200, gzip ? page.headersGzip : page.headers);
  res.end(gzip ? page.gzip : page.html);
  return true;
}

/** If-None-Match as `fresh` (which Next uses) reads it: `*`, or a list holding the ETag, weak or strong. */
function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === etag || tag === `W/${etag}`;
  });
}

/** Accept-Encoding names gzip (or `*`) with a non-zero quality. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== 'gzip' && name !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (!q || Number(q.slice(2)) > 0) return true;
  }
  return false;
}
