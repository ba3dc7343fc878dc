import type { GetStaticPropsContext, InferGetStaticPropsType } from 'next';
import LandingPage from '@/components/marketing/LandingPage';
import { collectionPaths, getLandingDoc, landingCards } from '@/server/content';

export async function getStaticPaths() {
  return collectionPaths('features');
}

export async function getStaticProps({ params }: GetStaticPropsContext<{ slug: string }>) {
  const slug = params!.slug;
  return { props: { doc: getLandingDoc('features', slug), related: landingCards('features', slug) } };
}

export default function FeaturePage({ doc, related }: InferGetStaticPropsType<typeof getStaticProps>) {
  return (
    <LandingPage
      doc={doc}
      path={`/features/${doc.slug}`}
      highlightsHeading="What you get"
      related={related}
      relatedHeading="More ARB features"
    />
  );
}
