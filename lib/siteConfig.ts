/**
 * Site configuration: the header menu. Each of the four primary sections (docs/PRODUCT.md, Header) is shown only when
 * `enabled`. Links use the canonical routes; the older spellings menus used (/books/,
 * /features/review-monitoring/, /sources/app-reviews/ios) still work through redirects, but a menu should not send
 * people through a redirect — and Google Play points at its own page, not the Apple one.
 */
import { chatPlatformList } from '@/shared/platforms';
export type MenuLink = { label: string; href: string; description?: string };
export type MenuSectionId = 'features' | 'sources' | 'useCases' | 'resources';
export type MenuSection = { id: MenuSectionId; label: string; enabled: boolean; links: MenuLink[] };

export type SiteConfig = {
  name: string;
  menu: { sections: MenuSection[]; links: MenuLink[] };
};

export const siteConfig: SiteConfig = {
  name: 'ARB',
  menu: {
    sections: [
      {
        id: 'features',
        label: 'Features',
        enabled: true,
        links: [
          { label: 'All features', href: '/features', description: 'Everything ARB does with your reviews' },
          { label: 'Review monitoring', href: '/features/app-review-monitoring', description: 'Every new review, within minutes' },
          { label: 'Replies', href: '/features/replies', description: 'Answer reviews without leaving chat' },
          { label: 'Sentiment analysis', href: '/features/sentiment-analysis', description: 'Spot unhappy users early' },
          { label: 'App ratings', href: '/features/app-ratings', description: 'Track your rating over time' },
          { label: 'Natural language processing', href: '/features/natural-language-processing', description: 'Topics and language, detected' },
          { label: 'Dashboards', href: '/features/dashboards', description: 'Your reviews at a glance' },
          { label: 'API', href: '/features/api', description: 'Your reviews in your own tools' },
          { label: 'Integrations', href: '/features/integrations', description: chatPlatformList(', ', { short: true }) },
        ],
      },
      {
        id: 'sources',
        label: 'Sources',
        enabled: true,
        links: [
          { label: 'App reviews & ratings', href: '/sources/app-reviews-ratings', description: 'Both stores, one feed' },
          { label: 'iOS App Store', href: '/sources/app-reviews/apple-app-store', description: 'Reviews from every country' },
          { label: 'Google Play', href: '/sources/app-reviews/google-play', description: 'Reviews as they are posted' },
        ],
      },
      {
        id: 'useCases',
        label: 'Use Cases',
        enabled: true,
        links: [
          { label: 'Product managers', href: '/use-cases/product-managers' },
          { label: 'Voice of the customer', href: '/use-cases/voice-of-the-customer' },
          { label: 'Developers', href: '/use-cases/developers' },
          { label: 'Customer support', href: '/use-cases/customer-support' },
        ],
      },
      {
        id: 'resources',
        label: 'Resources',
        enabled: true,
        links: [
          { label: 'Blog', href: '/blog' },
          { label: 'E-books', href: '/ebooks' },
          { label: 'Voice of the customer guide', href: '/resources/voice-of-the-customer' },
          { label: 'Ask ARB', href: '/ask-arb' },
          { label: 'Reviews in your inbox', href: '/get-reviews' },
          { label: 'Help centre', href: '/help' },
          { label: 'Changelog', href: '/changelog' },
        ],
      },
    ],
    links: [{ label: 'Pricing', href: '/pricing' }],
  },
};

export function enabledSections(config: SiteConfig = siteConfig): MenuSection[] {
  return config.menu.sections.filter((s) => s.enabled);
}
