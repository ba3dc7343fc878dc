// CommonJS (package.json has no "type": "module"), as Next's own templates write it.
const { contentSecurityPolicy, securityHeaders } = require('./server/http/securityHeaders.cjs');

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let parallel builds (tests, benches) not trample each other.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  poweredByHeader: false,
  // The whole tree (tests included) is type-checked once by `npm run typecheck`, which `npm test` runs first; the
  // build does not repeat it, so a half-written test file elsewhere never blocks a build.
  typescript: { ignoreBuildErrors: true },
  // Server-only packages with native/wasm parts stay outside the bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'kysely-pglite-dialect', 'pg', 'nodemailer', 'undici', 'koffi'],
  async redirects() {
    return [
      // Older paths the menus once used (kept in step with ROUTE_ALIASES in shared/publicRoutes.ts by a unit test).
      { source: '/books', destination: '/ebooks', permanent: true },
      { source: '/features/review-monitoring', destination: '/features/app-review-monitoring', permanent: true },
      { source: '/sources/app-reviews/ios', destination: '/sources/app-reviews/apple-app-store', permanent: true },
    ];
  },
  // Security headers on every response (pages, static files, API). CSP inputs are read here because next.config is
  // evaluated at build time, like the NEXT_PUBLIC_* values the browser code is built with.
  async headers() {
    const csp = contentSecurityPolicy({
      dev: process.env.NODE_ENV === 'development',
      posthogHost: process.env.NEXT_PUBLIC_POSTHOG_HOST,
      apiBase: process.env.NEXT_PUBLIC_API_BASE,
      searchBase: process.env.NEXT_PUBLIC_SEARCH_BASE,
    });
    const https = (process.env.APP_URL ?? '').startsWith('https://');
    return [
      {
        source: '/:path*',
        headers: securityHeaders({ csp, https }).map(([key, value]) => ({ key, value })),
      },
    ];
  },
};

module.exports = nextConfig;
