/** Text pages (help, FAQ, changelog, privacy, terms…): a plain heading, the Markdown body and optional extras. */
import type { ReactNode } from 'react';
import Seo from '@/components/layout/Seo';
import CTA from './CTA';
import Hero from './Hero';
import Markdown from './Markdown';
import type { PageDoc } from './types';
import styles from './DocPage.module.css';

export function formatDate(iso: string): string {
  // Fixed locale and time zone: the build machine and the reader's browser must print the same text (hydration).
  return new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

export default function DocPage({
  doc,
  path,
  children,
  cta = true,
}: {
  doc: PageDoc;
  path: string;
  /** Rendered after the Markdown body (e.g. a form). */
  children?: ReactNode;
  cta?: boolean;
}) {
  return (
    <>
      <Seo title={doc.title} description={doc.description} og_image={doc.og_image} path={path} />
      <Hero heading={doc.heading} lead={doc.lead} tone="light" />
      <div className={styles.body}>
        {doc.updated ? (
          <p className={styles.updated}>
            Last updated <time dateTime={doc.updated}>{formatDate(doc.updated)}</time>
          </p>
        ) : null}
        <Markdown html={doc.html} />
        {children}
      </div>
      {cta ? <CTA /> : null}
    </>
  );
}
