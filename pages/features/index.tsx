import FeaturesOverview from '@/components/marketing/FeaturesOverview';
import { getPageDoc, landingCards } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getPageDoc('features'), features: landingCards('features'), sources: landingCards('appReviewSources') } };
}

export default FeaturesOverview;
