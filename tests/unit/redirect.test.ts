import { describe, expect, test } from 'vitest';
import { afterSignIn, loginHref, sanitizeRedirect } from '@/lib/redirect';

describe('sanitizeRedirect', () => {
  test.each([
    ['/', '/'],
    ['/dashboard', '/dashboard'],
    ['/dashboard?tab=apps&page=2', '/dashboard?tab=apps&page=2'],
    ['/blog/how-to-track-app-uninstall-effectively#intro', '/blog/how-to-track-app-uninstall-effectively#intro'],
    ['/search?q=hello%20world', '/search?q=hello%20world'],
    ['/platform/slack?next=%2F%2Fnot-a-redirect', '/platform/slack?next=%2F%2Fnot-a-redirect'],
    ['/a/./b/../c', '/a/c'],
    ['/./dashboard', '/dashboard'],
    ['/%2e/dashboard', '/dashboard'],
  ])('keeps the same-site path %s', (input, expected) => {
    expect(sanitizeRedirect(input)).toBe(expected);
  });

  test.each([
    '//evil.example',
    '//evil.example/path',
    'https://evil.example',
    'http://evil.example/dashboard',
    '/\\evil.example',
    '\\\\evil.example',
    '/\\/evil.example',
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '%2F%2Fevil.example',
    '/%2F%2Fevil.example',
    '/%2f%2fevil.example',
    '/%5Cevil.example',
    '/%5cevil.example',
    '/%252F%252Fevil.example',
    '/%25252F%25252Fevil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/%09/evil.example',
    '/%0A/evil.example',
    '/%00',
    ' /dashboard',
    '/ /evil.example',
    '/\u3000/evil.example',
    '/%E0%A4%A',
    'dashboard',
    '',
    // Paths that only become `//host` once dot segments are resolved, as browsers do (WHATWG URL).
    '/.//evil.example',
    '/./\\evil.example',
    '/.%2F/evil.example',
    '/.%2f%2fevil.example',
    '/%2e//evil.example',
    '/%2E//evil.example',
    '/%2e%2e//evil.example',
    '/..//evil.example',
    '/a/..//evil.example',
    '/a/b/../..//evil.example',
    '/././/evil.example/x?y=1#z',
    '/%252e//evil.example',
    '/%2e%2f%2fevil.example',
    '/.%5C/evil.example',
  ])('drops %j', (attack) => {
    expect(sanitizeRedirect(attack)).toBe('/');
  });

  test('nothing it returns resolves to another origin, however the browser reads it', () => {
    const parts = ['/', '.', '..', '%2e', '%2f', '%2F', '%5c', '\\', 'evil.example', 'a', '%252f', '?', '#'];
    const seen = new Set<string>();
    // Every path of up to four parts: the output must resolve (WHATWG URL) to this site, and never start with //.
    const grow = (prefix: string, depth: number) => {
      if (depth === 0) return;
      for (const part of parts) {
        const candidate = prefix + part;
        if (seen.has(candidate)) continue;
        seen.add(candidate);
        const out = sanitizeRedirect(candidate, '/');
        expect(out.startsWith('/') && !out.startsWith('//') && !out.startsWith('/\\'), `${candidate} → ${out}`).toBe(true);
        expect(new URL(out, 'https://arb.example').origin, `${candidate} → ${out}`).toBe('https://arb.example');
        let decoded = out.split(/[?#]/)[0];
        for (let i = 0; i < 3; i += 1) decoded = decodeURIComponent(decoded);
        expect(new URL(decoded, 'https://arb.example').origin, `${candidate} → decoded ${decoded}`).toBe('https://arb.example');
        grow(candidate, depth - 1);
      }
    };
    grow('/', 4);
  });

  test('non-strings and absurd lengths fall back', () => {
    expect(sanitizeRedirect(undefined)).toBe('/');
    expect(sanitizeRedirect(42)).toBe('/');
    expect(sanitizeRedirect({ href: '/x' })).toBe('/');
    expect(sanitizeRedirect(`/${'a'.repeat(3000)}`)).toBe('/');
  });

  test('takes the first value of a repeated query parameter', () => {
    expect(sanitizeRedirect(['/pricing', '//evil.example'])).toBe('/pricing');
  });

  test('uses the given fallback', () => {
    expect(sanitizeRedirect('//evil.example', '/dashboard')).toBe('/dashboard');
  });
});

describe('loginHref', () => {
  test('carries the current path and query as redirect_to', () => {
    expect(loginHref('/pricing?plan=pro', { plan: 'pro' })).toBe('/login?redirect_to=%2Fpricing%3Fplan%3Dpro');
  });

  test('passes an existing redirect_to on unchanged instead of nesting it', () => {
    expect(loginHref('/try-free?redirect_to=%2Fdashboard', { redirect_to: '/dashboard' })).toBe('/login?redirect_to=%2Fdashboard');
  });

  test('leaves the hash out', () => {
    expect(loginHref('/faq#billing', {})).toBe('/login?redirect_to=%2Ffaq');
  });
});

describe('afterSignIn', () => {
  test.each([
    [undefined, '/dashboard'],
    ['', '/dashboard'],
    ['/', '/dashboard'],
    [['/', '/pricing'], '/dashboard'],
    ['//evil.example', '/dashboard'],
    ['https://evil.example/dashboard', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['javascript:alert(1)', '/dashboard'],
    ['/%2F%2Fevil.example', '/dashboard'],
  ])('%j lands on the dashboard', (raw, expected) => {
    expect(afterSignIn(raw)).toBe(expected);
  });

  test.each([
    ['/pricing?plan=team#faq', '/pricing?plan=team#faq'],
    ['/?app_id=123&app_store=itunes', '/?app_id=123&app_store=itunes'],
    ['/#connect', '/#connect'],
    ['/dashboard/team', '/dashboard/team'],
    ['/slack/link', '/slack/link'],
  ])('honours the same-site redirect_to %s', (raw, expected) => {
    expect(afterSignIn(raw)).toBe(expected);
  });
});
