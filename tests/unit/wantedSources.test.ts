import { describe, expect, test } from 'vitest';
import { MAIN_STOREFRONTS } from '@/shared/storefronts';
import { sourcesFor, storefrontsFor } from '@/server/monitor/wantedSources';

describe('what watching an app in a country means', () => {
  test('"all countries" is the main storefronts, the US first (where the app is looked up and the welcome waits)', () => {
    expect(storefrontsFor('all')).toEqual(MAIN_STOREFRONTS);
    expect(sourcesFor('apple_app_store', 'all').map((s) => s.kind === 'appstore_feed' && s.country)).toEqual([...MAIN_STOREFRONTS]);
    expect(storefrontsFor('all')[0]).toBe('us');
  });

  test('one storefront, or the US when none was chosen', () => {
    expect(sourcesFor('apple_app_store', 'gb')).toEqual([{ kind: 'appstore_feed', country: 'gb' }]);
    expect(sourcesFor('apple_app_store', undefined)).toEqual([{ kind: 'appstore_feed', country: 'us' }]);
    expect(storefrontsFor('')).toEqual(['us']);
  });

  test('Google Play is read by language, whatever the country', () => {
    expect(sourcesFor('google_play_store', 'all')).toEqual([{ kind: 'play_public', language: 'en' }]);
    expect(sourcesFor('google_play_store', 'gb', 'de')).toEqual([{ kind: 'play_public', language: 'de' }]);
  });
});
