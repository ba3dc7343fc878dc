import type { InferGetStaticPropsType } from 'next';
import GetReviewsForm from '@/components/connect/GetReviewsForm';
import LandingPage from '@/components/marketing/LandingPage';
import SpotlightSection from '@/components/marketing/SpotlightSection';
import { getLandingPage, landingCards } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getLandingPage('get-reviews'), related: landingCards('platform') } };
}

export default function GetReviewsPage({ doc, related }: InferGetStaticPropsType<typeof getStaticProps>) {
  return (
    <LandingPage
      doc={doc}
      path="/get-reviews"
      highlightsHeading="What lands in your inbox"
      related={related}
      relatedHeading="Chat tools ARB posts to"
    >
      {doc.spotlight ? (
        <SpotlightSection id="get-reviews-form" spotlight={doc.spotlight}>
          <GetReviewsForm />
        </SpotlightSection>
      ) : null}
    </LandingPage>
  );
}
