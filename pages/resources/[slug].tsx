import type { GetStaticPropsContext, InferGetStaticPropsType } from 'next';
import LandingPage from '@/components/marketing/LandingPage';
import { collectionPaths, getLandingDoc, landingCards } from '@/server/content';

export async function getStaticPaths() {
  return collectionPaths('resources');
}

export async function getStaticProps({ params }: GetStaticPropsContext<{ slug: string }>) {
  return { props: { doc: getLandingDoc('resources', params!.slug), related: landingCards('useCases') } };
}

export default function ResourcePage({ doc, related }: InferGetStaticPropsType<typeof getStaticProps>) {
  return (
    <LandingPage
      doc={doc}
      path={`/resources/${doc.slug}`}
      highlightsHeading="In this guide"
      related={related}
      relatedHeading="Put it to work with your team"
    />
  );
}
