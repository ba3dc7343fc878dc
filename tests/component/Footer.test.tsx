/** The footer of docs/PRODUCT.md: four groups, their links in order, the AskARB label, and the dark variant. */
import { screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { render } from '@/tests/helpers/render';
import Footer, { FOOTER_GROUPS, SOCIAL_LINK } from '@/components/layout/Footer';

function group(title: string): HTMLElement {
  const heading = screen.getByRole('heading', { name: title, level: 2 });
  return heading.parentElement!;
}

// docs/PRODUCT.md writes some footer paths with a trailing slash (/pricing/); next/link renders them without it, the form
// Next serves directly, so a click costs no redirect. FOOTER_GROUPS keeps that spelling.
function links(title: string): [string, string | null][] {
  return within(group(title))
    .getAllByRole('link')
    .map((a) => [a.textContent ?? '', a.getAttribute('href')]);
}

describe('Footer', () => {
  test('keeps the paths exactly as docs/PRODUCT.md writes them', () => {
    expect(FOOTER_GROUPS.map((g) => [g.title, g.links.map((l) => l.href)])).toEqual([
      ['Product', ['/platform/slack', '/platform/microsoft-teams', '/platform/mattermost', '/platform/discord', '/platform/webex', '/platform/google-chat', '/platform/telegram', '/pricing/', '/faq']],
      ['Company', ['/privacy/', '/terms/']],
      ['Explore', ['/ask-arb/', '/get-reviews', '/blog/']],
      ['Get in touch', [SOCIAL_LINK.href, '/contact/']],
    ]);
  });

  test('is the page’s contentinfo landmark with a navigation named Footer', () => {
    render(<Footer />);
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('navigation', { name: 'Footer' })).toBeInTheDocument();
    expect(
      within(footer)
        .getAllByRole('heading', { level: 2 })
        .map((h) => h.textContent),
    ).toEqual(['Product', 'Company', 'Explore', 'Get in touch']);
  });

  test('Product: the seven platform pages, then pricing and FAQ', () => {
    render(<Footer />);
    expect(links('Product')).toEqual([
      ['Slack', '/platform/slack'],
      ['Microsoft Teams', '/platform/microsoft-teams'],
      ['Mattermost', '/platform/mattermost'],
      ['Discord', '/platform/discord'],
      ['Webex', '/platform/webex'],
      ['Google Chat', '/platform/google-chat'],
      ['Telegram', '/platform/telegram'],
      ['Pricing', '/pricing'],
      ['FAQ', '/faq'],
    ]);
  });

  test('Company: privacy and terms', () => {
    render(<Footer />);
    expect(links('Company')).toEqual([
      ['Privacy policy', '/privacy'],
      ['Terms of service', '/terms'],
    ]);
  });

  test('Explore: /ask-arb/ labelled AskARB, /get-reviews and /blog/', () => {
    render(<Footer />);
    expect(within(group('Explore')).getByRole('link', { name: 'AskARB' })).toHaveAttribute('href', '/ask-arb');
    expect(links('Explore').map(([, href]) => href)).toEqual(['/ask-arb', '/get-reviews', '/blog']);
  });

  test('Get in touch: a social media profile and /contact/', () => {
    render(<Footer />);
    const [social, contact] = links('Get in touch');
    expect(social[1]).toMatch(/^https:\/\/(www\.)?linkedin\.com\/company\//);
    expect(contact).toEqual(['Contact us', '/contact']);
    // An outside profile is opened with a plain link that gives the other site no handle on this page.
    expect(within(group('Get in touch')).getByRole('link', { name: social[0] })).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });

  test('the dark variant (used on /ask-arb) renders the same links with the dark style', () => {
    const { container, rerender } = render(<Footer />);
    const lightClass = screen.getByRole('contentinfo').className;
    rerender(<Footer dark />);
    const darkClass = screen.getByRole('contentinfo').className;
    expect(darkClass).not.toBe(lightClass);
    expect(darkClass).toContain(lightClass);
    expect(container.querySelectorAll('a')).toHaveLength(16);
  });
});
