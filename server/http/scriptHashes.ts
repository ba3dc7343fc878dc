/**
 * The Content-Security-Policy of pages without 'unsafe-inline' for scripts. The pages are prerendered at build time and
 * served as they are (server/http/staticPages.ts), so a per-request nonce cannot be put into them; instead every
 * inline script of the built HTML is allowed by its SHA-256 hash. Next's pages carry one each — the bundler's list of
 * the page's chunks — and pages that share their chunks share the hash. Read once at start from the build, so the list
 * always matches the pages being served; pages rendered on demand (a new slug of a prerendered route) use the same
 * chunks as their prerendered siblings.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { withScriptHashes } from './securityHeaders.cjs';
import { log } from '../log';

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
/** Types a browser runs; anything else (application/json, Next's __NEXT_DATA__) is data that CSP does not govern. */
const RUNNABLE = /^(|module|text\/javascript|application\/javascript)$/i;

/** The 'sha256-…' source of every inline script the browser would run in `html`. */
export function inlineScriptHashes(html: string): string[] {
  const out: string[] = [];
  for (const [, attrs, body] of html.matchAll(SCRIPT)) {
    if (/\ssrc\s*=/i.test(` ${attrs}`) || body.length === 0) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]*)/i.exec(` ${attrs}`)?.[1] ?? '';
    if (!RUNNABLE.test(type)) continue;
    out.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return out;
}

function htmlFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => path.join(e.parentPath, e.name));
}

/** Every distinct inline-script hash of the build's prerendered pages (sorted: the header is the same on every start). */
export function buildScriptHashes(distDir: string): string[] {
  const hashes = new Set<string>();
  for (const file of htmlFiles(path.join(distDir, 'server/pages'))) for (const h of inlineScriptHashes(fs.readFileSync(file, 'utf8'))) hashes.add(h);
  return [...hashes].sort();
}

/** Rewrites a page CSP (as next.config.js made it) to allow the build's inline scripts. */
export type PageCsp = (csp: string) => string;

export function pageCspFor(distDir: string): PageCsp {
  const hashes = buildScriptHashes(distDir);
  log.info('page scripts allowed by hash in the Content-Security-Policy', { hashes: hashes.length });
  const cache = new Map<string, string>();
  return (csp) => {
    let out = cache.get(csp);
    if (out === undefined) cache.set(csp, (out = withScriptHashes(csp, hashes)));
    return out;
  };
}

/**
 * The bundler's chunks and stylesheets (/_next/static/…). A browser applies a Content-Security-Policy only from a
 * document (or a worker's script, and none of these is one), so on these files the header is dead weight: with every
 * hash in it, ~2 kB on each of the dozen files a page loads.
 */
export function isBundleAsset(pathname: string): boolean {
  return pathname.startsWith('/_next/static/');
}

/**
 * Makes the CSP that Next sets on `res` (from the build's header rules) the one with the hashes; the bundle's files
 * get none (isBundleAsset).
 */
export function hashPageCspOf(res: ServerResponse, pageCsp: PageCsp, pathname = ''): void {
  const setHeader = res.setHeader;
  const bundleAsset = isBundleAsset(pathname);
  res.setHeader = function setHeaderWithHashes(this: ServerResponse, name: string, value: number | string | readonly string[]) {
    if (name.toLowerCase() === 'content-security-policy') {
      if (bundleAsset) return this;
      if (typeof value === 'string') value = pageCsp(value);
    }
    return setHeader.call(this, name, value);
  } as ServerResponse['setHeader'];
}
