/**
 * Reads the marketing copy in content/ (Markdown with YAML front matter) and renders it to HTML.
 * Runs only at build time, from getStaticProps / getStaticPaths: the browser receives finished HTML, never a Markdown
 * parser. Front matter is validated with zod so a missing title or a misspelt field stops the build with the file
 * name, instead of shipping a page without a description.
 */
import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { marked } from 'marked';
import { z } from 'zod';
import {
  APP_REVIEW_SOURCE_SLUGS,
  FEATURE_SLUGS,
  PLATFORM_SLUGS,
  RESOURCE_SLUGS,
  USE_CASE_SLUGS,
} from '@/shared/publicRoutes';
import type { BlogPost, BlogPostSummary, Doc, GridItem, LandingDoc, PageDoc, PricingDoc } from '@/shared/content';
import { comparisonRows, PLANS, pricingCard } from '@/shared/plans';

export const CONTENT_DIR = path.join(process.cwd(), 'content');

/**
 * Folders of content/ whose files each become one page under a dynamic route. `route` is the URL prefix; the page
 * file is `pages${route}/[slug].tsx`. Tests use this map to check that every file has a route and vice versa.
 */
export const COLLECTIONS = {
  features: { dir: 'features', route: '/features', order: FEATURE_SLUGS },
  platform: { dir: 'platform', route: '/platform', order: PLATFORM_SLUGS },
  useCases: { dir: 'use-cases', route: '/use-cases', order: USE_CASE_SLUGS },
  appReviewSources: { dir: 'sources/app-reviews', route: '/sources/app-reviews', order: APP_REVIEW_SOURCE_SLUGS },
  resources: { dir: 'resources', route: '/resources', order: RESOURCE_SLUGS },
  blog: { dir: 'blog', route: '/blog', order: [] as readonly string[] },
} as const;

export type CollectionName = keyof typeof COLLECTIONS;

/** Single text pages live in content/pages/<name>.md; single pages with the landing layout in content/landing/. */
const PAGES_DIR = 'pages';
const LANDING_DIR = 'landing';

export class ContentError extends Error {}

const seoFields = {
  title: z.string().trim().min(1),
  description: z.string().trim().min(20, 'must be a real sentence (20+ characters)').max(320),
  og_image: z.string().startsWith('/').optional(),
};

// YAML turns 2025-01-31 into a Date; getStaticProps can only pass plain JSON, so dates become "YYYY-MM-DD".
const isoDate = z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/), z.date()]).transform((d) => (d instanceof Date ? d.toISOString().slice(0, 10) : d));

const highlight = z.object({ title: z.string().min(1), text: z.string().min(1) }).strict();

const landingSchema = z
  .object({
    ...seoFields,
    /** Short name: shown above the h1 and as the card title when other pages link here. */
    eyebrow: z.string().min(1).max(40),
    heading: z.string().min(1),
    lead: z.string().min(1),
    highlights: z.array(highlight).default([]),
    preview: z
      .object({
        app: z.string(),
        store: z.enum(['App Store', 'Google Play']),
        rating: z.number().int().min(1).max(5),
        title: z.string(),
        body: z.string(),
        author: z.string(),
        country: z.string(),
        version: z.string(),
      })
      .strict()
      .optional(),
    spotlight: z
      .object({ heading: z.string().min(1), text: z.string().min(1), items: z.array(z.string().min(1)).min(1) })
      .strict()
      .optional(),
  })
  .strict();

const pageSchema = z
  .object({ ...seoFields, heading: z.string().min(1), lead: z.string().min(1), updated: isoDate.optional() })
  .strict();

const blogSchema = z.object({ ...seoFields, date: isoDate, author: z.string().min(1) }).strict();

const pricingSchema = z
  .object({ ...seoFields, heading: z.string().min(1), lead: z.string().min(1) })
  .strict();

type Raw = { file: string; slug: string; data: Record<string, unknown>; body: string };

function readRaw(relFile: string): Raw {
  const file = path.join(CONTENT_DIR, relFile);
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    throw new ContentError(`content/${relFile} does not exist`);
  }
  const parsed = matter(source);
  return { file: `content/${relFile}`, slug: path.basename(relFile, '.md'), data: parsed.data, body: parsed.content };
}

function validate<T>(schema: z.ZodType<T>, raw: Raw): T {
  const result = schema.safeParse(raw.data);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || '(front matter)'}: ${i.message}`).join('; ');
    throw new ContentError(`${raw.file}: invalid front matter — ${issues}`);
  }
  return result.data;
}

/** Markdown → HTML. Our own copy, written in this repository, so the HTML is trusted. */
export function renderMarkdown(markdown: string): string {
  // Code blocks scroll sideways on small screens: tabindex makes them reachable by keyboard (axe: scrollable-region-focusable).
  return marked.parse(markdown, { async: false, gfm: true }).replace(/<pre>/g, '<pre tabindex="0">');
}

/** Words a reader reads: the Markdown body without syntax, link targets or HTML tags. */
export function countWords(markdown: string): number {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[#>*_`[\]|-]/g, ' ');
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

function doc(raw: Raw, seo: { title: string; description: string; og_image?: string }): Doc {
  return { slug: raw.slug, title: seo.title, description: seo.description, og_image: seo.og_image ?? null, html: renderMarkdown(raw.body) };
}

/** File names (without .md) of a collection, sorted, so getStaticPaths and the tests agree. */
export function collectionSlugs(name: CollectionName): string[] {
  const dir = path.join(CONTENT_DIR, COLLECTIONS[name].dir);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => e.name.slice(0, -3))
    .sort();
}

/** getStaticPaths for a collection route: every file, no fallback (an unknown slug is a 404). */
export function collectionPaths(name: CollectionName) {
  return { paths: collectionSlugs(name).map((slug) => ({ params: { slug } })), fallback: false as const };
}

function collectionFile(name: CollectionName, slug: string): string {
  if (!/^[a-z0-9-]+$/.test(slug)) throw new ContentError(`invalid slug "${slug}"`);
  return `${COLLECTIONS[name].dir}/${slug}.md`;
}

function singleFile(dir: string, name: string): string {
  if (!/^[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(name)) throw new ContentError(`invalid page name "${name}"`);
  return `${dir}/${name}.md`;
}

function landing(raw: Raw): LandingDoc {
  const fm = validate(landingSchema, raw);
  return {
    ...doc(raw, fm),
    eyebrow: fm.eyebrow,
    heading: fm.heading,
    lead: fm.lead,
    highlights: fm.highlights,
    preview: fm.preview ?? null,
    spotlight: fm.spotlight ?? null,
  };
}

/** A feature, platform, use-case, source or resource page. */
export function getLandingDoc(name: Exclude<CollectionName, 'blog'>, slug: string): LandingDoc {
  return landing(readRaw(collectionFile(name, slug)));
}

/** A single page with the landing layout: content/landing/<name>.md (e.g. "ask-arb", "get-reviews"). */
export function getLandingPage(name: string): LandingDoc {
  return landing(readRaw(singleFile(LANDING_DIR, name)));
}

/** Every document of a landing collection in the site's order (shared/publicRoutes.ts), e.g. for the /features grid. */
export function listLandingDocs(name: Exclude<CollectionName, 'blog'>): LandingDoc[] {
  const order: readonly string[] = COLLECTIONS[name].order;
  const rank = (slug: string) => (order.includes(slug) ? order.indexOf(slug) : order.length);
  return collectionSlugs(name)
    .sort((a, b) => rank(a) - rank(b))
    .map((slug) => getLandingDoc(name, slug));
}

/** Cards linking to the pages of a collection (its short name and description), optionally without one of them. */
export function landingCards(name: Exclude<CollectionName, 'blog'>, except?: string): GridItem[] {
  return listLandingDocs(name)
    .filter((d) => d.slug !== except)
    .map((d) => ({ title: d.eyebrow, text: d.description, href: `${COLLECTIONS[name].route}/${d.slug}` }));
}

/** A single page: content/pages/<name>.md (name may contain a folder, e.g. "sources/app-reviews-ratings"). */
export function getPageDoc(name: string): PageDoc {
  const raw = readRaw(singleFile(PAGES_DIR, name));
  const fm = validate(pageSchema, raw);
  return { ...doc(raw, fm), heading: fm.heading, lead: fm.lead, updated: fm.updated ?? null };
}

/** Names of every single page in content/pages or content/landing (for tests). */
export function singlePageNames(kind: 'pages' | 'landing'): string[] {
  const root = path.join(CONTENT_DIR, kind === 'pages' ? PAGES_DIR : LANDING_DIR);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.md')) out.push(path.relative(root, full).slice(0, -3).split(path.sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

/** The pricing page: its words from content/pricing.md, its plans, prices and limits from the plan catalogue. */
export function getPricingDoc(): PricingDoc {
  const raw = readRaw('pricing.md');
  const fm = validate(pricingSchema, raw);
  return { ...doc(raw, fm), heading: fm.heading, lead: fm.lead, plans: PLANS.map(pricingCard), comparison: comparisonRows() };
}

const WORDS_PER_MINUTE = 230;

export function getBlogPost(slug: string): BlogPost {
  const raw = readRaw(collectionFile('blog', slug));
  const fm = validate(blogSchema, raw);
  const words = countWords(raw.body);
  return { ...doc(raw, fm), date: fm.date, author: fm.author, words, readingMinutes: Math.max(1, Math.round(words / WORDS_PER_MINUTE)) };
}

/** Blog posts, newest first, without their bodies (the index page only needs the summaries). */
export function listBlogPosts(): BlogPostSummary[] {
  return collectionSlugs('blog')
    .map((slug) => {
      const { html: _html, ...summary } = getBlogPost(slug);
      return summary;
    })
    .sort((a, b) => b.date.localeCompare(a.date));
}
