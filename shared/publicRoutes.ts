/**
 * Every public route of the site (docs/PRODUCT.md, Routes), as plain data so the sitemap, the unit tests and the end-to-end
 * accessibility checks share one list. Pure module: no fs, no React — safe in the browser, in Node and in Playwright.
 *
 * The content-driven routes (features, platforms, use cases, sources, resources, blog posts) are listed here too;
 * tests/unit/content.test.ts fails when this list and the files in content/ + pages/ disagree.
 */
import { PLATFORM_NAMES_BY_SLUG, PLATFORM_SLUGS as REGISTRY_SLUGS, type PlatformSlug } from '@/shared/platforms';

/** In the order the site presents them (the product's core first); lists of cards follow these orders. */
export const FEATURE_SLUGS = [
  'app-review-monitoring',
  'integrations',
  'replies',
  'sentiment-analysis',
  'natural-language-processing',
  'app-ratings',
  'dashboards',
  'api',
] as const;

/** The chat platforms' pages (/platform/<slug>), from the registry (shared/platforms.ts). */
export const PLATFORM_SLUGS: readonly PlatformSlug[] = REGISTRY_SLUGS;

export const USE_CASE_SLUGS = ['product-managers', 'voice-of-the-customer', 'developers', 'customer-support'] as const;

export const APP_REVIEW_SOURCE_SLUGS = ['apple-app-store', 'google-play'] as const;

export const RESOURCE_SLUGS = ['voice-of-the-customer'] as const;

export const BLOG_SLUGS = [
  '10-effective-growth-hacking-techniques-for-mobile',
  'best-practices-for-crafting-a-compelling-app-value-proposition',
  'how-to-track-app-uninstall-effectively',
] as const;

export type { PlatformSlug };

/** Display names of the chat platforms by slug, in the order the product lists them. */
export const PLATFORM_NAMES: Record<PlatformSlug, string> = PLATFORM_NAMES_BY_SLUG;

/** The marketing pages this site renders from content/ (static, light theme except /ask-arb). */
export const MARKETING_ROUTES: readonly string[] = [
  '/pricing',
  '/blog',
  ...BLOG_SLUGS.map((s) => `/blog/${s}`),
  '/contact',
  '/faq',
  '/help',
  '/changelog',
  '/privacy',
  '/terms',
  '/ebooks',
  '/get-reviews',
  '/ask-arb',
  '/features',
  ...FEATURE_SLUGS.map((s) => `/features/${s}`),
  '/sources/app-reviews-ratings',
  ...APP_REVIEW_SOURCE_SLUGS.map((s) => `/sources/app-reviews/${s}`),
  ...USE_CASE_SLUGS.map((s) => `/use-cases/${s}`),
  ...RESOURCE_SLUGS.map((s) => `/resources/${s}`),
  ...PLATFORM_SLUGS.map((s) => `/platform/${s}`),
];

/** Everything a search engine should index: the home page, the free-trial entry and the marketing pages. */
export const PUBLIC_ROUTES: readonly string[] = ['/', '/try-free', ...MARKETING_ROUTES];

/**
 * Older paths menus and links used, and where they lead. next.config.js redirects these (it cannot
 * import TypeScript, so the unit test checks that both lists say the same thing).
 */
export const ROUTE_ALIASES: Readonly<Record<string, string>> = {
  '/books': '/ebooks',
  '/features/review-monitoring': '/features/app-review-monitoring',
  '/sources/app-reviews/ios': '/sources/app-reviews/apple-app-store',
};

/** Drop a trailing slash (but keep "/") so "/pricing/" and "/pricing" compare equal, as Next serves them. */
export function normalizeRoute(href: string): string {
  const path = href.split(/[?#]/)[0];
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
