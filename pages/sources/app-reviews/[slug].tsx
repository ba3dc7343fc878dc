import type { GetStaticPropsContext, InferGetStaticPropsType } from 'next';
import LandingPage from '@/components/marketing/LandingPage';
import { collectionPaths, getLandingDoc, landingCards } from '@/server/content';

export async function getStaticPaths() {
  return collectionPaths('appReviewSources');
}

export async function getStaticProps({ params }: GetStaticPropsContext<{ slug: string }>) {
  const slug = params!.slug;
  return { props: { doc: getLandingDoc('appReviewSources', slug), related: landingCards('appReviewSources', slug) } };
}

export default function AppReviewSourcePage({ doc, related }: InferGetStaticPropsType<typeof getStaticProps>) {
  return (
    <LandingPage
      doc={doc}
      path={`/sources/app-reviews/${doc.slug}`}
      highlightsHeading="What ARB reads from this store"
      related={related}
      relatedHeading="The other store"
    />
  );
}
