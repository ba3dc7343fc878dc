/**
 * Title, description and share tags of a page (docs/PRODUCT.md, Page shell). _app renders <Seo /> with the defaults;
 * a page renders its own <Seo title=… /> and, because every tag carries a `key`, next/head keeps only the page's
 * version of each tag. The server HTML carries the page's tags. In the browser next/head rewrites the head from the
 * <Seo>s mounted so far, so the default one sits beside the page (inside the frame's page boundary, not with the root):
 * hydrated in one commit, they never leave the defaults alone in the head, even for a moment.
 *
 * Share scrapers need absolute URLs. A static page knows no host at build time, so absolute og:url, og:image and the
 * canonical link are emitted only when NEXT_PUBLIC_SITE_URL (the public origin, e.g. https://arb.example) is set at
 * build time; without it the image URL stays root-relative and no canonical is claimed.
 */
import Head from 'next/head';
import { chatPlatformList } from '@/shared/platforms';

export const DEFAULT_TITLE = 'App Store & Google Play Review Monitoring in Slack and Microsoft Teams';
export const DEFAULT_DESCRIPTION =
  `ARB posts every new App Store and Google Play review into ${chatPlatformList(', ')} or your inbox — once, formatted for each tool — with replies, sentiment, translation and AI summaries.`;
export const DEFAULT_OG_IMAGE = '/og-default.png';

const BRAND = 'ARB';

/** "Pricing" → "Pricing | ARB"; titles that already name the product are kept as written. */
export function pageTitle(title?: string | null): string {
  if (!title) return DEFAULT_TITLE;
  return title.includes(BRAND) ? title : `${title} | ${BRAND}`;
}

function siteOrigin(): string | null {
  const origin = process.env.NEXT_PUBLIC_SITE_URL;
  return origin ? origin.replace(/\/+$/, '') : null;
}

function absolute(url: string, origin: string | null): string {
  return origin && url.startsWith('/') ? `${origin}${url}` : url;
}

export type SeoProps = {
  title?: string | null;
  description?: string | null;
  og_image?: string | null;
  /** The page's path, e.g. "/pricing": used for og:url and the canonical link when the origin is known. */
  path?: string;
  /** Keep the page out of search engines: the app's own pages (sign-in, dashboard, links from e-mails). */
  noindex?: boolean;
};

export default function Seo({ title, description, og_image, path, noindex }: SeoProps) {
  const origin = siteOrigin();
  const fullTitle = pageTitle(title);
  const desc = description || DEFAULT_DESCRIPTION;
  const image = absolute(og_image || DEFAULT_OG_IMAGE, origin);
  const url = origin && path ? `${origin}${path === '/' ? '' : path}` : null;
  return (
    <Head>
      <title key="title">{fullTitle}</title>
      <meta key="description" name="description" content={desc} />
      <meta key="og:type" property="og:type" content="website" />
      <meta key="og:site_name" property="og:site_name" content={BRAND} />
      <meta key="og:title" property="og:title" content={fullTitle} />
      <meta key="og:description" property="og:description" content={desc} />
      <meta key="og:image" property="og:image" content={image} />
      {/* Share images, the default and any page's og_image, are 1200×630 (the size every network crops to). */}
      <meta key="og:image:width" property="og:image:width" content="1200" />
      <meta key="og:image:height" property="og:image:height" content="630" />
      <meta key="twitter:card" name="twitter:card" content="summary_large_image" />
      <meta key="twitter:title" name="twitter:title" content={fullTitle} />
      <meta key="twitter:description" name="twitter:description" content={desc} />
      <meta key="twitter:image" name="twitter:image" content={image} />
      {url ? <meta key="og:url" property="og:url" content={url} /> : null}
      {url ? <link key="canonical" rel="canonical" href={url} /> : null}
      {noindex ? <meta key="robots" name="robots" content="noindex" /> : null}
    </Head>
  );
}
