import PricingPage from '@/components/marketing/PricingPage';
import { getPricingDoc } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getPricingDoc() } };
}

export default PricingPage;
