import type { InferGetStaticPropsType } from 'next';
import LandingPage from '@/components/marketing/LandingPage';
import { getLandingPage, landingCards } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getLandingPage('app-reviews-ratings'), stores: landingCards('appReviewSources') } };
}

export default function AppReviewsRatingsPage({ doc, stores }: InferGetStaticPropsType<typeof getStaticProps>) {
  return (
    <LandingPage
      doc={doc}
      path="/sources/app-reviews-ratings"
      highlightsHeading="Four ways in, one stream of reviews"
      related={stores}
      relatedHeading="Pick your store"
    />
  );
}
