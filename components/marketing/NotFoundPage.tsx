/** The 404 page: says what happened, offers the main ways on and the search box on the home page. */
import Link from 'next/link';
import Seo from '@/components/layout/Seo';
import buttons from './buttons.module.css';
import Hero from './Hero';
import Markdown from './Markdown';
import type { PageDoc } from './types';
import styles from './NotFoundPage.module.css';

export default function NotFoundPage({ doc }: { doc: PageDoc }) {
  return (
    <>
      {/* No path: a missing page has no canonical URL of its own. */}
      <Seo title={doc.title} description={doc.description} og_image={doc.og_image} />
      <Hero eyebrow="Error 404" heading={doc.heading} lead={doc.lead} tone="light">
        <Link href="/" prefetch={false} className={buttons.primary}>
          Search your app
        </Link>
        <Link href="/features" prefetch={false} className={buttons.secondary}>
          Browse features
        </Link>
        <Link href="/help" prefetch={false} className={buttons.secondary}>
          Open the help page
        </Link>
      </Hero>
      <div className={styles.body}>
        <Markdown html={doc.html} />
      </div>
    </>
  );
}
