import type { InferGetStaticPropsType } from 'next';
import AskArbSection from '@/components/askArb/AskArbSection';
import LandingPage from '@/components/marketing/LandingPage';
import SpotlightSection from '@/components/marketing/SpotlightSection';
import { getLandingPage, landingCards } from '@/server/content';

export async function getStaticProps() {
  const features = landingCards('features').filter((c) => c.href !== '/features/integrations');
  return { props: { doc: getLandingPage('ask-arb'), related: features } };
}

/** /ask-arb is the one dark page: black content here, dark header and taller dark footer from the Layout. */
export default function AskArbPage({ doc, related }: InferGetStaticPropsType<typeof getStaticProps>) {
  return (
    <LandingPage doc={doc} path="/ask-arb" highlightsHeading="Answers you can check" related={related} relatedHeading="What Ask ARB builds on" dark>
      {doc.spotlight ? (
        <SpotlightSection id="ask-arb-chat" spotlight={doc.spotlight} dark>
          <AskArbSection />
        </SpotlightSection>
      ) : null}
    </LandingPage>
  );
}
