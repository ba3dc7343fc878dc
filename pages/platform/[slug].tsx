import type { GetStaticPropsContext, InferGetStaticPropsType } from 'next';
import LandingPage from '@/components/marketing/LandingPage';
import { PLATFORM_NAMES, type PlatformSlug } from '@/lib/publicRoutes';
import { collectionPaths, getLandingDoc, landingCards } from '@/server/content';

export async function getStaticPaths() {
  return collectionPaths('platform');
}

export async function getStaticProps({ params }: GetStaticPropsContext<{ slug: string }>) {
  const slug = params!.slug;
  return { props: { doc: getLandingDoc('platform', slug), related: landingCards('platform', slug) } };
}

export default function PlatformPage({ doc, related }: InferGetStaticPropsType<typeof getStaticProps>) {
  const platform = doc.slug as PlatformSlug;
  return (
    <LandingPage
      doc={doc}
      path={`/platform/${doc.slug}`}
      platform={platform}
      highlightsHeading={`Why teams read reviews in ${PLATFORM_NAMES[platform]}`}
      related={related}
      relatedHeading="Other chat tools ARB posts to"
    />
  );
}
