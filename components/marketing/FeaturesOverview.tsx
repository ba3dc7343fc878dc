/**
 * /features: every feature page as a card, the sources, the chat tools and the capabilities shared by all plans. All
 * of it is static: it hydrates as StaticContent.
 */
import Link from 'next/link';
import Seo from '@/components/layout/Seo';
import StaticContent from '@/components/layout/StaticContent';
import buttons from './buttons.module.css';
import CTA from './CTA';
import FeatureGrid from './FeatureGrid';
import Hero from './Hero';
import Markdown from './Markdown';
import PlatformBadges from './PlatformBadges';
import type { GridItem, PageDoc } from './types';
import styles from './FeaturesOverview.module.css';

export default function FeaturesOverview({ doc, features, sources }: { doc: PageDoc; features: GridItem[]; sources: GridItem[] }) {
  return (
    <>
      <Seo title={doc.title} description={doc.description} og_image={doc.og_image} path="/features" />
      <StaticContent>
        <Hero eyebrow="Features" heading={doc.heading} lead={doc.lead}>
          <Link href="/" prefetch={false} className={buttons.primary}>
            Search your app
          </Link>
          <Link href="/pricing" prefetch={false} className={buttons.secondary}>
            See plans and prices
          </Link>
        </Hero>
        <FeatureGrid heading="What ARB does for your reviews" items={features} id="features" />
        <section className={styles.platforms} aria-labelledby="platforms-heading">
          <div className={styles.inner}>
            <h2 id="platforms-heading">Posts where your team already talks</h2>
            <p className={styles.intro}>
              Each tool gets a message built for it, not a generic blob of text: Block Kit in Slack, Adaptive Cards in
              Teams, attachments in Mattermost, embeds in Discord, Markdown in Webex, and a tidy digest by e-mail.
            </p>
            <PlatformBadges />
          </div>
        </section>
        <FeatureGrid heading="Where the reviews come from" items={sources} id="sources" />
        <div className={styles.body}>
          <Markdown html={doc.html} />
        </div>
        <CTA />
      </StaticContent>
    </>
  );
}
