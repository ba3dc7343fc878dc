/**
 * The five `[slug]` landing routes, made by one factory (server/landingRoutes.ts + components/marketing/
 * LandingRoutePage.tsx): every content file of each collection is a page, drawn with its collection's headings, its
 * related cards (its siblings, or the use cases for a guide) and, on platform pages, the sample message. The headings
 * are written out here, as the page files had them, so a slip in the factory's table shows.
 */
import { screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { render } from '@/tests/helpers/render';
import * as features from '@/pages/features/[slug]';
import * as platform from '@/pages/platform/[slug]';
import * as resources from '@/pages/resources/[slug]';
import * as appReviewSources from '@/pages/sources/app-reviews/[slug]';
import * as useCases from '@/pages/use-cases/[slug]';
import { COLLECTIONS, collectionSlugs } from '@/server/content';
import { PLATFORM_NAMES, type PlatformSlug } from '@/shared/publicRoutes';

type RouteModule = typeof features;

const ROUTES: { name: keyof typeof COLLECTIONS; page: RouteModule; highlights: (slug: string) => string; related: string; relatedFrom?: string }[] = [
  { name: 'features', page: features, highlights: () => 'What you get', related: 'More ARB features' },
  { name: 'platform', page: platform, highlights: (slug) => `Why teams read reviews in ${PLATFORM_NAMES[slug as PlatformSlug]}`, related: 'Other chat tools ARB posts to' },
  { name: 'useCases', page: useCases, highlights: () => 'How ARB helps', related: 'ARB for other teams' },
  { name: 'appReviewSources', page: appReviewSources, highlights: () => 'What ARB reads from this store', related: 'The other store' },
  { name: 'resources', page: resources, highlights: () => 'In this guide', related: 'Put it to work with your team', relatedFrom: '/use-cases/' },
];

describe.each(ROUTES)('$name/[slug]', ({ name, page, highlights, related, relatedFrom }) => {
  const route = COLLECTIONS[name].route;

  test('one page per content file, no fallback', async () => {
    const paths = await page.getStaticPaths();
    expect(paths.fallback).toBe(false);
    expect(paths.paths.map((p) => p.params.slug)).toEqual(collectionSlugs(name));
  });

  test.each(collectionSlugs(name))('%s: its document, headings and related pages', async (slug) => {
    const { props } = await page.getStaticProps({ params: { slug } });
    const Page = page.default;
    const { unmount } = render(<Page {...props} />, { url: `${route}/${slug}`, pathname: `${route}/[slug]` });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(props.doc.heading);
    if (props.doc.highlights.length) expect(screen.getByRole('heading', { name: highlights(slug) })).toBeInTheDocument();
    if (props.related.length) {
      expect(screen.getByRole('heading', { name: related })).toBeInTheDocument();
      const hrefs = props.related.map((r) => r.href);
      expect(hrefs).not.toContain(`${route}/${slug}`);
      for (const href of hrefs) expect(href?.startsWith(relatedFrom ?? `${route}/`)).toBe(true);
    }
    const preview = screen.queryByRole('region', { name: 'Example message' });
    if (name === 'platform' && props.doc.preview) expect(preview).not.toBeNull();
    else expect(preview).toBeNull();
    unmount();
  });
});
