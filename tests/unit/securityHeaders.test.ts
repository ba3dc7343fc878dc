// Security headers for pages (next.config.js headers()) and the CSP they carry.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { API_CONTENT_SECURITY_POLICY, contentSecurityPolicy, securityHeaders, withScriptHashes } from '@/server/http/securityHeaders.cjs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { buildScriptHashes, hashPageCspOf, inlineScriptHashes } from '@/server/http/scriptHashes';

const directives = (csp: string) => Object.fromEntries(csp.split('; ').map((d) => { const [name, ...values] = d.split(' '); return [name, values]; }));

describe('contentSecurityPolicy', () => {
  test('lets the site work: its own scripts, hCaptcha, store icons — and no inline scripts except by hash', () => {
    const d = directives(contentSecurityPolicy());
    expect(d['default-src']).toEqual(["'self'"]);
    expect(d['script-src']).toEqual(expect.arrayContaining(["'self'", 'https://hcaptcha.com', 'https://*.hcaptcha.com']));
    expect(d['script-src']).not.toContain("'unsafe-inline'");
    expect(d['style-src']).toContain("'unsafe-inline'"); // styles only: React style attributes, the UI library
    expect(d['script-src']).not.toContain("'unsafe-eval'");
    expect(d['frame-src']).toEqual(['https://hcaptcha.com', 'https://*.hcaptcha.com']);
    expect(d['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:', 'https://*.mzstatic.com', 'https://play-lh.googleusercontent.com']));
    expect(d['connect-src']).toEqual(expect.arrayContaining(["'self'", 'https://*.hcaptcha.com']));
    expect(d['frame-ancestors']).toEqual(["'none'"]);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(d['base-uri']).toEqual(["'self'"]);
  });

  test('adds the PostHog host (and its assets host) when analytics is configured', () => {
    const d = directives(contentSecurityPolicy({ posthogHost: 'https://eu.i.posthog.com' }));
    expect(d['script-src']).toEqual(expect.arrayContaining(['https://eu.i.posthog.com', 'https://eu-assets.i.posthog.com']));
    expect(d['connect-src']).toEqual(expect.arrayContaining(['https://eu.i.posthog.com']));
    const self = directives(contentSecurityPolicy({ posthogHost: 'https://ph.example.com/' }));
    expect(self['connect-src']).toContain('https://ph.example.com');
  });

  test('an absolute API base is allowed to connect; a relative one adds nothing', () => {
    expect(directives(contentSecurityPolicy({ apiBase: 'https://api.example.com/api/' }))['connect-src']).toContain('https://api.example.com');
    expect(directives(contentSecurityPolicy({ apiBase: '/api/' }))['connect-src']).toEqual(["'self'", 'https://hcaptcha.com', 'https://*.hcaptcha.com']);
  });

  test("development allows eval, inline scripts and websockets for Fast Refresh", () => {
    const d = directives(contentSecurityPolicy({ dev: true }));
    expect(d['script-src']).toContain("'unsafe-eval'");
    expect(d['script-src']).toContain("'unsafe-inline'");
    expect(d['connect-src']).toContain('ws:');
  });

  test('malformed hosts are ignored rather than breaking the header', () => {
    const csp = contentSecurityPolicy({ posthogHost: 'not a url', apiBase: 'javascript:alert(1)' });
    expect(csp).not.toMatch(/not a url|javascript/);
  });
});

describe('inline scripts allowed by hash', () => {
  const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  const boot = '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["a.js"]})';

  test('hashes the scripts a browser runs, not data blocks or external scripts', () => {
    const html = `<head><script>${boot}</script><script src="/_next/a.js" defer=""></script></head><body><script id="__NEXT_DATA__" type="application/json">{"props":{}}</script><script type="module">run()</script></body>`;
    expect(inlineScriptHashes(html)).toEqual([sha(boot), sha('run()')]);
  });

  test('a build\'s pages give one hash per distinct script; the policy carries them instead of unsafe-inline', () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-csp-'));
    fs.mkdirSync(path.join(dist, 'server/pages/blog'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'server/pages/index.html'), `<script>${boot}</script>`);
    fs.writeFileSync(path.join(dist, 'server/pages/pricing.html'), `<script>${boot}</script>`);
    fs.writeFileSync(path.join(dist, 'server/pages/blog/post.html'), '<script>other()</script>');
    const hashes = buildScriptHashes(dist);
    expect(hashes).toEqual([sha(boot), sha('other()')].sort());
    // A policy from an older build (with 'unsafe-inline') comes out without it.
    const d = directives(withScriptHashes("default-src 'self'; script-src 'self' 'unsafe-inline' https://hcaptcha.com; style-src 'self' 'unsafe-inline'", hashes));
    expect(d['script-src']).toEqual(["'self'", ...hashes, 'https://hcaptcha.com']);
    expect(d['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    fs.rmSync(dist, { recursive: true, force: true });
  });
});

describe('the CSP Next sets on what it serves', () => {
  const served = (pathname: string) => {
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    hashPageCspOf(res, (csp) => `${csp} 'sha256-x'`, pathname);
    res.setHeader('Content-Security-Policy', "script-src 'self'");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    return res;
  };

  test('a page gets the hashes; the bundle\'s scripts and stylesheets carry no policy (browsers apply none from them)', () => {
    expect(served('/no-such-page').getHeader('content-security-policy')).toBe("script-src 'self' 'sha256-x'");
    const chunk = served('/_next/static/chunks/abc.js');
    expect(chunk.getHeader('content-security-policy')).toBeUndefined();
    expect(chunk.getHeader('x-content-type-options')).toBe('nosniff');
    expect(served('/_next/static/chunks/abc.css?v=1').getHeader('content-security-policy')).toBeUndefined();
  });
});

describe('securityHeaders', () => {
  test('nosniff, referrer policy, permissions policy, no framing; HSTS only over https', () => {
    const plain = Object.fromEntries(securityHeaders({ csp: API_CONTENT_SECURITY_POLICY }));
    expect(plain).toMatchObject({
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    });
    expect(plain['Permissions-Policy']).toMatch(/camera=\(\), microphone=\(\), geolocation=\(\)/);
    expect(plain).not.toHaveProperty('Strict-Transport-Security');
    expect(Object.fromEntries(securityHeaders({ csp: 'x', https: true }))).toHaveProperty('Strict-Transport-Security');
  });
});

describe('next.config.js headers()', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  test('applies the headers to every path, pages included', async () => {
    process.env.NEXT_PUBLIC_POSTHOG_HOST = 'https://us.i.posthog.com';
    type NextHeaders = Array<{ source: string; headers: Array<{ key: string; value: string }> }>;
    const file = path.resolve(__dirname, '../../next.config.js'); // a path, not a specifier: the .js has no types
    const { default: config } = (await import(file)) as { default: { headers: () => Promise<NextHeaders> } };
    const rules = await config.headers();
    const all = rules.find((r) => r.source === '/:path*');
    expect(all).toBeDefined();
    const h = Object.fromEntries(all!.headers.map((x) => [x.key, x.value]));
    expect(h['X-Content-Type-Options']).toBe('nosniff');
    expect(h['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
    expect(h['Content-Security-Policy']).toMatch(/frame-ancestors 'none'/);
    expect(h['Content-Security-Policy']).toMatch(/script-src [^;]*https:\/\/us\.i\.posthog\.com/);
  });
});
