/**
 * The page half of the five `[slug]` landing routes (the data half: server/landingRoutes.ts): each collection's words
 * around the shared LandingPage layout. A new landing collection is a row here, a folder of content and a page file.
 */
import { PLATFORM_NAMES, type PlatformSlug } from '@/shared/publicRoutes';
import LandingPage from './LandingPage';
import type { GridItem, LandingDoc } from './types';

type RouteWords = {
  /** The URL prefix of the collection's pages (`pages${base}/[slug].tsx`). */
  base: string;
  highlightsHeading: (doc: LandingDoc) => string;
  relatedHeading: string;
  /** Platform pages show a sample message drawn in that platform's style. */
  platformPage?: true;
};

const ROUTES = {
  features: { base: '/features', highlightsHeading: () => 'What you get', relatedHeading: 'More ARB features' },
  platform: {
    base: '/platform',
    highlightsHeading: (doc) => `Why teams read reviews in ${PLATFORM_NAMES[doc.slug as PlatformSlug]}`,
    relatedHeading: 'Other chat tools ARB posts to',
    platformPage: true,
  },
  useCases: { base: '/use-cases', highlightsHeading: () => 'How ARB helps', relatedHeading: 'ARB for other teams' },
  appReviewSources: { base: '/sources/app-reviews', highlightsHeading: () => 'What ARB reads from this store', relatedHeading: 'The other store' },
  resources: { base: '/resources', highlightsHeading: () => 'In this guide', relatedHeading: 'Put it to work with your team' },
} satisfies Record<string, RouteWords>;

/** The collection's name, as server/landingRoutes.ts names it. */
export type LandingRouteName = keyof typeof ROUTES;

export type LandingRouteProps = { doc: LandingDoc; related: GridItem[] };

export function landingRoutePage(collection: LandingRouteName) {
  const words: RouteWords = ROUTES[collection];
  function LandingRoute({ doc, related }: LandingRouteProps) {
    return (
      <LandingPage
        doc={doc}
        path={`${words.base}/${doc.slug}`}
        platform={words.platformPage ? (doc.slug as PlatformSlug) : undefined}
        highlightsHeading={words.highlightsHeading(doc)}
        related={related}
        relatedHeading={words.relatedHeading}
      />
    );
  }
  return LandingRoute;
}
