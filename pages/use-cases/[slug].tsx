import type { GetStaticPropsContext, InferGetStaticPropsType } from 'next';
import LandingPage from '@/components/marketing/LandingPage';
import { collectionPaths, getLandingDoc, landingCards } from '@/server/content';

export async function getStaticPaths() {
  return collectionPaths('useCases');
}

export async function getStaticProps({ params }: GetStaticPropsContext<{ slug: string }>) {
  const slug = params!.slug;
  return { props: { doc: getLandingDoc('useCases', slug), related: landingCards('useCases', slug) } };
}

export default function UseCasePage({ doc, related }: InferGetStaticPropsType<typeof getStaticProps>) {
  return (
    <LandingPage
      doc={doc}
      path={`/use-cases/${doc.slug}`}
      highlightsHeading="How ARB helps"
      related={related}
      relatedHeading="ARB for other teams"
    />
  );
}
