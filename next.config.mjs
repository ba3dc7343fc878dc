/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let parallel builds (tests, benches) not trample each other.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages with native/wasm parts stay outside the bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'kysely-pglite-dialect', 'pg', 'nodemailer', 'undici'],
  async redirects() {
    return [];
  },
  async headers() {
    return [];
  },
};

export default nextConfig;
