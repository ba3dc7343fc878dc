/**
 * /pricing: the plans of the plan catalogue (cards, then every limit compared), then what every plan includes and the
 * billing questions. All of it is static: it hydrates as StaticContent.
 */
import Seo from '@/components/layout/Seo';
import StaticContent from '@/components/layout/StaticContent';
import CTA from './CTA';
import Hero from './Hero';
import Markdown from './Markdown';
import PlanComparison from './PlanComparison';
import PricingPlans from './PricingPlans';
import type { PricingDoc } from './types';
import styles from './PricingPage.module.css';

export default function PricingPage({ doc }: { doc: PricingDoc }) {
  return (
    <>
      <Seo title={doc.title} description={doc.description} og_image={doc.og_image} path="/pricing" />
      <StaticContent>
        <Hero eyebrow="Pricing" heading={doc.heading} lead={doc.lead} />
        <div className={styles.plans}>
          <PricingPlans plans={doc.plans} />
          <PlanComparison plans={doc.plans} rows={doc.comparison} />
        </div>
        <div className={styles.body}>
          <Markdown html={doc.html} />
        </div>
        <CTA heading="Start on the Free plan today" />
      </StaticContent>
    </>
  );
}
