// Security headers for every response. Plain CommonJS on purpose: next.config.js (CommonJS, which cannot load
// TypeScript) applies them to pages and static files, and the API framework (server/http/api.ts) applies the API
// variant, so both come from this one file.
'use strict';

const HCAPTCHA = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];
// App icons come straight from the stores' CDNs.
const STORE_ICONS = ['https://*.mzstatic.com', 'https://play-lh.googleusercontent.com'];

/** The origin of an absolute http(s) URL, or null for relative or malformed values ("/api/"). */
function originOf(value) {
  if (!value) return null;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * PostHog serves its extra scripts (surveys, recorder) from a sibling "-assets" host: us.i.posthog.com →
 * us-assets.i.posthog.com.
 */
function posthogOrigins(host) {
  const origin = originOf(host);
  if (!origin) return [];
  const u = new URL(origin);
  const m = /^([a-z0-9-]+)\.i\.posthog\.com$/.exec(u.hostname);
  return m ? [origin, `${u.protocol}//${m[1]}-assets.i.posthog.com`] : [origin];
}

function unique(list) {
  return [...new Set(list.filter(Boolean))];
}

/**
 * The site's Content-Security-Policy. Scripts need 'unsafe-inline': statically generated pages-router pages carry
 * Next's inline bootstrap scripts and cannot get a per-request nonce. Development adds 'unsafe-eval' and websockets for
 * Fast Refresh.
 * @param {{ dev?: boolean, posthogHost?: string, apiBase?: string, searchBase?: string }} [options]
 */
function contentSecurityPolicy(options = {}) {
  const analytics = posthogOrigins(options.posthogHost);
  const apis = unique([originOf(options.apiBase), originOf(options.searchBase)]);
  const directives = {
    'default-src': ["'self'"],
    'script-src': unique(["'self'", "'unsafe-inline'", options.dev ? "'unsafe-eval'" : null, ...HCAPTCHA, ...analytics]),
    'style-src': unique(["'self'", "'unsafe-inline'", ...HCAPTCHA]),
    'img-src': unique(["'self'", 'data:', 'blob:', ...STORE_ICONS, ...analytics]),
    'font-src': ["'self'", 'data:'],
    'connect-src': unique(["'self'", ...apis, ...HCAPTCHA, ...analytics, options.dev ? 'ws:' : null]),
    'frame-src': [...HCAPTCHA],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** JSON answers load nothing and are never framed. */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The headers every response carries, as [name, value] pairs.
 * @param {{ csp: string, https?: boolean }} options
 * @returns {Array<[string, string]>}
 */
function securityHeaders({ csp, https = false }) {
  const headers = [
    ['Content-Security-Policy', csp],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()'],
    ['Cross-Origin-Opener-Policy', 'same-origin-allow-popups'],
  ];
  // Browsers ignore HSTS over plain http; only a site served over https may pin it.
  if (https) headers.push(['Strict-Transport-Security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

module.exports = { contentSecurityPolicy, securityHeaders, API_CONTENT_SECURITY_POLICY };
