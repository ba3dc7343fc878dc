/**
 * The layout of every feature, platform, use-case, source and resource page (and of /ask-arb and /get-reviews):
 * hero with calls to action, optional extra sections, an optional sample message, the highlights grid, the page's
 * Markdown body, related pages and the closing call to action. `dark` is the black theme of /ask-arb.
 */
import Link from 'next/link';
import type { ReactNode } from 'react';
import Seo from '@/components/layout/Seo';
import type { PlatformSlug } from '@/shared/publicRoutes';
import buttons from './buttons.module.css';
import ChatPreview from './ChatPreview';
import CTA from './CTA';
import FeatureGrid from './FeatureGrid';
import Hero from './Hero';
import Markdown from './Markdown';
import type { GridItem, LandingDoc } from './types';
import styles from './LandingPage.module.css';

export default function LandingPage({
  doc,
  path,
  highlightsHeading,
  platform,
  related,
  relatedHeading = 'Keep exploring',
  dark = false,
  children,
}: {
  doc: LandingDoc;
  path: string;
  highlightsHeading: string;
  /** Platform pages show a sample message drawn in that platform's style. */
  platform?: PlatformSlug;
  related?: GridItem[];
  relatedHeading?: string;
  dark?: boolean;
  /** Sections shown right under the hero (e.g. the /get-reviews form). */
  children?: ReactNode;
}) {
  return (
    <div className={dark ? styles.dark : undefined}>
      <Seo title={doc.title} description={doc.description} og_image={doc.og_image} path={path} />
      <Hero eyebrow={doc.eyebrow} heading={doc.heading} lead={doc.lead} tone={dark ? 'dark' : 'blue'}>
        <Link href="/" prefetch={false} className={buttons.primary}>
          Search your app
        </Link>
        <Link href="/pricing" prefetch={false} className={dark ? `${buttons.secondary} ${buttons.onDark}` : buttons.secondary}>
          See plans and prices
        </Link>
      </Hero>
      {children}
      {platform && doc.preview ? (
        <section className={styles.preview} aria-label="Example message">
          <div className={styles.inner}>
            <ChatPreview platform={platform} review={doc.preview} />
          </div>
        </section>
      ) : null}
      {doc.highlights.length > 0 ? <FeatureGrid heading={highlightsHeading} items={doc.highlights} dark={dark} /> : null}
      <div className={styles.body}>
        <Markdown html={doc.html} dark={dark} />
      </div>
      {related && related.length > 0 ? (
        <FeatureGrid heading={relatedHeading} items={related} id="related" dark={dark} />
      ) : null}
      <CTA dark={dark} />
    </div>
  );
}
