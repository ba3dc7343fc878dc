import { describe, expect, test } from 'vitest';
import { normalizeAppId } from '@/shared/appIds';
import { appRefSchema, withCheckedAppId } from '@/server/apps/params';
import { validateAppRef } from '@/server/monitor/apps';
import { getAdapter } from '@/server/sources';
import { validPackageName } from '@/server/sources/playDeveloper';
import type { AppStore } from '@/shared/appStores';

const request = appRefSchema.transform(withCheckedAppId);

/** Every layer an app id passes through, asked the same question: is this id acceptable for this store? */
function acceptedBy(store: AppStore, id: string) {
  const search = request.safeParse({ app_id: id, app_store: store }).success;
  let engine = true;
  try {
    validateAppRef({ store, appId: id });
  } catch {
    engine = false;
  }
  let playAdapter = true;
  try {
    validPackageName(id);
  } catch {
    playAdapter = false;
  }
  return { search, engine, playAdapter };
}

describe('one app-id rule for every layer', () => {
  const cases: Array<[AppStore, string, boolean]> = [
    ['apple_app_store', '1488223190', true],
    ['apple_app_store', '284882215', true],
    ['apple_app_store', '123456789012', true],
    ['apple_app_store', '1234567890123', false], // 13 digits: search used to accept it and the engine refused it
    ['apple_app_store', '0123', false],
    ['apple_app_store', '12a', false],
    ['google_play_store', 'com.example.app', true],
    ['google_play_store', 'com.king.candycrushsaga', true],
    ['google_play_store', 'com.example.1app', false], // a segment must start with a letter
    ['google_play_store', 'example', false],
    ['google_play_store', `com.${'a'.repeat(150)}`, false],
  ];
  test.each(cases)('%s %s → accepted %s everywhere', (store, id, ok) => {
    const { search, engine, playAdapter } = acceptedBy(store, id);
    expect(search).toBe(ok);
    expect(engine).toBe(ok);
    if (store === 'google_play_store') expect(playAdapter).toBe(ok);
  });

  test.each(['1234567890123', '0123'])('the App Store feed adapter refuses %s, as the search does', async (appId) => {
    await expect(
      getAdapter('appstore_feed').poll({ kind: 'appstore_feed', appId, country: 'us' }, { since: null, maxPages: 1 }),
    ).rejects.toThrow(/not an App Store app id/);
  });

  test('normalises pasted App Store ids and trims spaces', () => {
    expect(normalizeAppId('apple_app_store', ' id1488223190 ')).toBe('1488223190');
    expect(normalizeAppId('google_play_store', ' com.example.app ')).toBe('com.example.app');
  });
});
