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
 * The site's Content-Security-Policy. Scripts: this site's files and the named hosts only, no 'unsafe-inline'. The
 * inline scripts Next writes into the prerendered pages (its bundler's chunk list) are allowed by their hashes, which
 * server/http/scriptHashes.ts reads from the built HTML at start and adds with withScriptHashes: next.config.js runs
 * before those pages exist. Development keeps 'unsafe-inline' and adds 'unsafe-eval' and websockets for Fast Refresh.
 * Styles keep 'unsafe-inline': React's `style` attributes and the UI library's inline styles need it, and styles
 * cannot run code.
 * @param {{ dev?: boolean, posthogHost?: string, apiBase?: string, searchBase?: string, scriptHashes?: string[] }} [options]
 */
function contentSecurityPolicy(options = {}) {
  const analytics = posthogOrigins(options.posthogHost);
  const apis = unique([originOf(options.apiBase), originOf(options.searchBase)]);
  const directives = {
    'default-src': ["'self'"],
    'script-src': unique([
      "'self'",
      ...(options.scriptHashes ?? []),
      options.dev ? "'unsafe-inline'" : null,
      options.dev ? "'unsafe-eval'" : null,
      ...HCAPTCHA,
      ...analytics,
    ]),
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

/**
 * `csp` with `hashes` ('sha256-…' sources) added to its script-src, right after 'self', and 'unsafe-inline' taken out
 * of it (a policy from an older build may still carry it; browsers would ignore it next to hashes anyway).
 * @param {string} csp
 * @param {string[]} hashes
 */
function withScriptHashes(csp, hashes) {
  return csp.replace(/(^|;\s*)script-src ([^;]*)/, (_all, lead, values) => {
    const list = values.split(/\s+/).filter((v) => v && v !== "'unsafe-inline'");
    const at = list.indexOf("'self'") + 1;
    list.splice(at, 0, ...hashes.filter((h) => !list.includes(h)));
    return `${lead}script-src ${list.join(' ')}`;
  });
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

module.exports = { contentSecurityPolicy, withScriptHashes, securityHeaders, API_CONTENT_SECURITY_POLICY };
