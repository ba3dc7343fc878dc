/**
 * The site footer, exactly the groups and links of docs/PRODUCT.md, Footer. The paths keep that page's spelling
 * (some with a trailing slash); next/link renders them without the slash (trailingSlash is off), so a click lands on
 * the page directly, and the slashed form still works by Next's redirect. `dark` is the taller black footer of /ask-arb.
 * Its content never changes in the browser, so it hydrates as StaticContent.
 */
import Link from 'next/link';
import { PLATFORM_NAMES, PLATFORM_SLUGS } from '@/shared/publicRoutes';
import styles from './Footer.module.css';
import StaticContent from './StaticContent';

export type FooterLink = { href: string; label: string; external?: boolean };
export type FooterGroup = { title: string; links: FooterLink[] };

/** The company's social profile, the footer's "social media link". */
export const SOCIAL_LINK: FooterLink = {
  href: 'https://www.linkedin.com/company/arb-app-review-bot',
  label: 'ARB on LinkedIn',
  external: true,
};

export const FOOTER_GROUPS: FooterGroup[] = [
  {
    title: 'Product',
    links: [
      ...PLATFORM_SLUGS.map((slug) => ({ href: `/platform/${slug}`, label: PLATFORM_NAMES[slug] })),
      { href: '/pricing/', label: 'Pricing' },
      { href: '/faq', label: 'FAQ' },
    ],
  },
  {
    title: 'Company',
    links: [
      { href: '/privacy/', label: 'Privacy policy' },
      { href: '/terms/', label: 'Terms of service' },
    ],
  },
  {
    title: 'Explore',
    links: [
      { href: '/ask-arb/', label: 'AskARB' },
      { href: '/get-reviews', label: 'Reviews in your inbox' },
      { href: '/blog/', label: 'Blog' },
    ],
  },
  {
    title: 'Get in touch',
    links: [SOCIAL_LINK, { href: '/contact/', label: 'Contact us' }],
  },
];

export default function Footer({ dark }: { dark?: boolean }) {
  return (
    <footer className={dark ? `${styles.footer} ${styles.dark}` : styles.footer}>
      <StaticContent>
        <div className={styles.inner}>
          <div className={styles.brand}>
            <p className={styles.name}>ARB</p>
            <p className={styles.tagline}>
              Every new App Store and Google Play review, delivered once to the chat tool your team already uses.
            </p>
          </div>
          <nav aria-label="Footer" className={styles.groups}>
            {FOOTER_GROUPS.map((group) => (
              <div key={group.title} className={styles.group}>
                <h2 className={styles.heading}>{group.title}</h2>
                <ul className={styles.list}>
                  {group.links.map((link) => (
                    <li key={link.href}>
                      {link.external ? (
                        <a className={styles.link} href={link.href} rel="me noopener noreferrer">
                          {link.label}
                        </a>
                      ) : (
                        <Link className={styles.link} href={link.href} prefetch={false}>
                          {link.label}
                        </Link>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        </div>
        <p className={styles.legal}>© ARB. App Store is a trademark of Apple Inc.; Google Play is a trademark of Google LLC.</p>
      </StaticContent>
    </footer>
  );
}
