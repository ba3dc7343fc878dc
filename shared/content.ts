/**
 * Shapes of the marketing content as the pages receive it from getStaticProps: server/content.ts builds them from
 * content/*.md, the marketing components render them. Types only, owned by neither side (shared/ never imports from
 * server/ or from browser modules).
 */
import type { ComparisonRow, PricingCard } from '@/shared/plans';
export type { ComparisonRow };

/** Every content document: SEO fields from the front matter plus the Markdown body rendered to HTML at build time. */
export type Doc = {
  slug: string;
  title: string;
  description: string;
  og_image: string | null;
  html: string;
};

export type Highlight = { title: string; text: string };

/** A card of a FeatureGrid; with `href` its title links to that page. */
export type GridItem = { title: string; text: string; href?: string };

/** A review shown the way a chat platform renders it (platform pages). */
export type ReviewPreview = {
  app: string;
  store: 'App Store' | 'Google Play';
  rating: number;
  title: string;
  body: string;
  author: string;
  country: string;
  version: string;
};

/** Feature, platform, use-case, source and resource pages: a hero, a grid of highlights, then the Markdown body. */
export type LandingDoc = Doc & {
  /** Short name, e.g. "Replies": above the h1, and the card title where other pages link here. */
  eyebrow: string;
  heading: string;
  lead: string;
  highlights: Highlight[];
  preview: ReviewPreview | null;
  /** A highlighted section under the hero (example questions on /ask-arb, what arrives on /get-reviews). */
  spotlight: Spotlight | null;
};

export type Spotlight = { heading: string; text: string; items: string[] };

export type BlogPost = Doc & {
  date: string;
  author: string;
  words: number;
  readingMinutes: number;
};

export type BlogPostSummary = Omit<BlogPost, 'html'>;

/** A plan card of /pricing and /subscribe, built from the plan catalogue (shared/plans.ts). */
export type Plan = PricingCard;

export type PricingDoc = Doc & { heading: string; lead: string; plans: Plan[]; comparison: ComparisonRow[] };

/** Simple pages (privacy, terms, help, FAQ, changelog, ebooks…): a heading, an intro line and the Markdown body. */
export type PageDoc = Doc & { heading: string; lead: string; updated: string | null };
