import { describe, expect, test } from 'vitest';
import { normalizeRoute, PUBLIC_ROUTES } from '@/shared/publicRoutes';
import { enabledSections, siteConfig, type SiteConfig } from '@/lib/siteConfig';

describe('site configuration menu', () => {
  test('has the four primary sections', () => {
    expect(siteConfig.menu.sections.map((s) => s.label)).toEqual(['Features', 'Sources', 'Use Cases', 'Resources']);
  });

  test('every menu link is a page the site serves (no redirects, no dead links)', () => {
    const routes = new Set(PUBLIC_ROUTES.map(normalizeRoute));
    const links = [...siteConfig.menu.sections.flatMap((s) => s.links), ...siteConfig.menu.links];
    const missing = links.filter((l) => !routes.has(normalizeRoute(l.href)));
    expect(missing).toEqual([]);
  });

  test('Google Play points at the Google Play page (not the Apple page)', () => {
    const sources = siteConfig.menu.sections.find((s) => s.id === 'sources');
    expect(sources?.links.find((l) => l.label === 'Google Play')?.href).toBe('/sources/app-reviews/google-play');
  });

  test('disabled sections are left out', () => {
    const config: SiteConfig = { ...siteConfig, menu: { ...siteConfig.menu, sections: siteConfig.menu.sections.map((s) => ({ ...s, enabled: s.id !== 'sources' })) } };
    expect(enabledSections(config).map((s) => s.id)).toEqual(['features', 'useCases', 'resources']);
  });
});
