/**
 * The marketing content and its routes: every Markdown file parses with real SEO fields, every content slug has a
 * page and every page slug has content, blog posts are real articles, and no link on the site (footer, Markdown
 * bodies, pricing buttons, route list, aliases) points to a page that does not exist. The route list is derived from
 * the pages/ folder and content/, so adding a dead link or deleting a page makes this fail.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { NextConfig } from 'next';
import { describe, expect, test } from 'vitest';
import { FOOTER_GROUPS } from '@/components/layout/Footer';
import {
  APP_REVIEW_SOURCE_SLUGS,
  BLOG_SLUGS,
  FEATURE_SLUGS,
  MARKETING_ROUTES,
  PLATFORM_SLUGS,
  PUBLIC_ROUTES,
  RESOURCE_SLUGS,
  ROUTE_ALIASES,
  USE_CASE_SLUGS,
  normalizeRoute,
} from '@/shared/publicRoutes';
import {
  COLLECTIONS,
  type CollectionName,
  ContentError,
  collectionSlugs,
  countWords,
  getBlogPost,
  getLandingDoc,
  getLandingPage,
  getPageDoc,
  getPricingDoc,
  landingCards,
  singlePageNames,
} from '@/server/content';

const ROOT = path.resolve(__dirname, '../..');
const PAGES = path.join(ROOT, 'pages');
const LANDING_COLLECTIONS = ['features', 'platform', 'useCases', 'appReviewSources', 'resources'] as const;

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full) : [full];
  });
}

/** Page files (not API routes, not _app/_document) as route patterns: pages/blog/[slug].tsx → /blog/[slug]. */
function pageRoutePatterns(): string[] {
  return walk(PAGES)
    .map((f) => path.relative(PAGES, f).split(path.sep).join('/'))
    .filter((f) => /\.tsx?$/.test(f) && !f.startsWith('api/') && !/(^|\/)_/.test(f))
    .map((f) => `/${f.replace(/\.tsx?$/, '')}`.replace(/\/index$/, '') || '/');
}

/** Every URL the site serves: static page files, plus each dynamic content route expanded with its content slugs. */
function servedRoutes(): Set<string> {
  const routes = new Set<string>();
  for (const pattern of pageRoutePatterns()) {
    if (!pattern.includes('[')) {
      routes.add(pattern === '' ? '/' : pattern);
      continue;
    }
    const collection = Object.values(COLLECTIONS).find((c) => pattern === `${c.route}/[slug]`);
    if (!collection) continue; // another area's dynamic route (e.g. the dashboard): not enumerable from content
    const name = (Object.keys(COLLECTIONS) as CollectionName[]).find((k) => COLLECTIONS[k] === collection)!;
    for (const slug of collectionSlugs(name)) routes.add(`${collection.route}/${slug}`);
  }
  return routes;
}

const SERVED = servedRoutes();
// next.config.js is plain JavaScript (CommonJS) without types: load it by URL and type it as Next's config.
const nextConfig = ((await import(pathToFileURL(path.join(ROOT, 'next.config.js')).href)) as { default: NextConfig }).default;
const REDIRECTS = (await nextConfig.redirects!()) as { source: string; destination: string; permanent: boolean }[];
const REACHABLE = new Set([...SERVED, ...REDIRECTS.map((r) => r.source)]);

function internalLinks(html: string): string[] {
  return [...html.matchAll(/href="(\/[^"]*)"/g)].map((m) => m[1]);
}

function allDocs() {
  return [
    ...singlePageNames('pages').map((n) => ({ file: `pages/${n}`, doc: getPageDoc(n), body: getPageDoc(n).html })),
    ...singlePageNames('landing').map((n) => ({ file: `landing/${n}`, doc: getLandingPage(n), body: getLandingPage(n).html })),
    ...LANDING_COLLECTIONS.flatMap((c) =>
      collectionSlugs(c).map((s) => ({ file: `${COLLECTIONS[c].dir}/${s}`, doc: getLandingDoc(c, s), body: getLandingDoc(c, s).html })),
    ),
    ...collectionSlugs('blog').map((s) => ({ file: `blog/${s}`, doc: getBlogPost(s), body: getBlogPost(s).html })),
    { file: 'pricing', doc: getPricingDoc(), body: getPricingDoc().html },
  ];
}

describe('content files', () => {
  test('every Markdown file in content/ is read by some page', () => {
    const files = walk(path.join(ROOT, 'content'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => path.relative(path.join(ROOT, 'content'), f).slice(0, -3).split(path.sep).join('/'));
    expect(files.sort()).toEqual(allDocs().map((d) => d.file).sort());
  });

  test('every file parses and has a title, a description and a non-empty body', () => {
    for (const { file, doc } of allDocs()) {
      expect(doc.title.length, file).toBeGreaterThan(3);
      expect(doc.description.length, file).toBeGreaterThanOrEqual(20);
      expect(doc.html.length, file).toBeGreaterThan(200);
    }
  });

  test('front matter has no YAML comments: an unquoted " #" would silently cut a value short', () => {
    for (const f of walk(path.join(ROOT, 'content')).filter((f) => f.endsWith('.md'))) {
      const frontMatter = fs.readFileSync(f, 'utf8').split(/^---$/m)[1];
      const comments = frontMatter.split('\n').filter((line) => /(^|\s)#/.test(line.replace(/"[^"]*"|'[^']*'/g, '')));
      expect(comments, path.relative(ROOT, f)).toEqual([]);
    }
  });

  test('no Markdown body has its own h1: the page heading is the only one', () => {
    for (const { file, body } of allDocs()) expect(body, file).not.toMatch(/<h1[\s>]/);
  });

  test('titles and descriptions are unique across pages', () => {
    const docs = allDocs();
    expect(new Set(docs.map((d) => d.doc.title)).size).toBe(docs.length);
    expect(new Set(docs.map((d) => d.doc.description)).size).toBe(docs.length);
  });

  test('single pages are named by their loaders in the page files', () => {
    const sources = walk(PAGES)
      .filter((f) => f.endsWith('.tsx'))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    for (const name of singlePageNames('pages')) expect(sources, name).toContain(`getPageDoc('${name}')`);
    for (const name of singlePageNames('landing')) expect(sources, name).toContain(`getLandingPage('${name}')`);
  });

  test('a file with bad front matter is rejected with its name', () => {
    expect(() => getPageDoc('does-not-exist')).toThrow(/content\/pages\/does-not-exist\.md does not exist/);
    expect(() => getLandingDoc('features', '../pages/faq')).toThrow(ContentError);
  });
});

describe('collections match the routes', () => {
  const expected: Record<(typeof LANDING_COLLECTIONS)[number] | 'blog', readonly string[]> = {
    features: FEATURE_SLUGS,
    platform: PLATFORM_SLUGS,
    useCases: USE_CASE_SLUGS,
    appReviewSources: APP_REVIEW_SOURCE_SLUGS,
    resources: RESOURCE_SLUGS,
    blog: BLOG_SLUGS,
  };

  for (const [name, slugs] of Object.entries(expected)) {
    test(`${name}: every slug of docs/PRODUCT.md has a content file and a page, and nothing else does`, () => {
      expect(collectionSlugs(name as CollectionName)).toEqual([...slugs].sort());
      const { route } = COLLECTIONS[name as CollectionName];
      expect(fs.existsSync(path.join(PAGES, `${route}/[slug].tsx`)), `${route}/[slug].tsx`).toBe(true);
      for (const slug of slugs) expect(SERVED.has(`${route}/${slug}`), `${route}/${slug}`).toBe(true);
    });
  }

  test('cards list a collection in the site’s order, linking each page by its short name', () => {
    expect(landingCards('features').map((c) => c.href)).toEqual(FEATURE_SLUGS.map((s) => `/features/${s}`));
    expect(landingCards('platform', 'slack').map((c) => c.title)).toEqual(['Microsoft Teams', 'Mattermost', 'Discord', 'Webex', 'Google Chat', 'Telegram']);
  });

  test('landing pages have highlights; platform pages also a sample review for the preview', () => {
    for (const c of LANDING_COLLECTIONS) {
      for (const slug of collectionSlugs(c)) expect(getLandingDoc(c, slug).highlights.length, `${c}/${slug}`).toBeGreaterThanOrEqual(3);
    }
    for (const slug of PLATFORM_SLUGS) expect(getLandingDoc('platform', slug).preview, slug).not.toBeNull();
  });
});

describe('blog posts', () => {
  test.each(BLOG_SLUGS)('%s is a real article of 800+ words with a date and author', (slug) => {
    const post = getBlogPost(slug);
    expect(post.words).toBeGreaterThanOrEqual(800);
    expect(post.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(post.author.length).toBeGreaterThan(2);
    expect(post.html).toMatch(/<h2>/);
  });

  test('countWords counts prose, not Markdown syntax or link targets', () => {
    expect(countWords('## Title\n\nSee [the docs](/features/api) — **now**.')).toBe(5);
  });
});

describe('pricing', () => {
  test('plans have monthly prices, limits and buttons to real pages', () => {
    const { plans } = getPricingDoc();
    expect(plans.map((p) => p.name)).toEqual(['Free', 'Startup', 'Business', 'Enterprise']);
    expect(plans[0].price_monthly).toBe(0);
    expect(plans.filter((p) => p.highlighted)).toHaveLength(1);
    for (const p of plans) expect(REACHABLE.has(normalizeRoute(p.cta_href)), p.cta_href).toBe(true);
  });
});

describe('links point to pages that exist', () => {
  test('every public route is served', () => {
    for (const route of PUBLIC_ROUTES) expect(SERVED.has(route), route).toBe(true);
  });

  test('every marketing page the site serves from content is in the public route list (so the sitemap has it)', () => {
    const fromContent = [...SERVED].filter((r) => Object.values(COLLECTIONS).some((c) => r.startsWith(`${c.route}/`)));
    for (const route of fromContent) expect(MARKETING_ROUTES, route).toContain(route);
  });

  test('footer links lead to served pages (trailing slashes as Next serves them)', () => {
    const internal = FOOTER_GROUPS.flatMap((g) => g.links).filter((l) => !l.external);
    expect(internal.length).toBe(15); // the seven platform pages among them
    for (const link of internal) expect(SERVED.has(normalizeRoute(link.href)), link.href).toBe(true);
  });

  test('links inside the Markdown of every page lead to served pages', () => {
    for (const { file, body } of allDocs()) {
      for (const href of internalLinks(body)) expect(REACHABLE.has(normalizeRoute(href)), `${file} → ${href}`).toBe(true);
    }
  });

  test('the alternative paths redirect, permanently, to served pages, as ROUTE_ALIASES says', () => {
    expect(Object.fromEntries(REDIRECTS.map((r) => [r.source, r.destination]))).toEqual(ROUTE_ALIASES);
    for (const r of REDIRECTS) {
      expect(r.permanent, r.source).toBe(true);
      expect(SERVED.has(r.destination), r.destination).toBe(true);
    }
  });
});
