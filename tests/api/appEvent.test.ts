import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { accessTokenFor, billingTokenFor } from '../helpers/session';
import { createTestDb, type TestDb } from '../helpers/testDb';
import { startTestApi, type TestApi } from '../helpers/api';
import { DEMO_APPS } from '../fixtures/catalog';

let db: TestDb;
let api: TestApi;

beforeAll(async () => {
  db = await createTestDb();
  api = await startTestApi();
}, 60_000);

afterAll(async () => {
  await api.close();
  await db.close();
});

beforeEach(async () => {
  await db.db.deleteFrom('app_events').execute();
});

async function sendEvent(query: Record<string, string>, token?: string) {
  const res = await fetch(`${api.url}/api/v1/apps/event?${new URLSearchParams(query)}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, json: (await res.json()) as { data?: unknown; error?: { code: string; message: string } } };
}

const events = () => db.db.selectFrom('app_events').select(['event', 'app_id', 'app_store', 'user_id']).orderBy('id').execute();
const user = { userId: 'usr_events1', orgId: 'org_events1', email: 'pm@example.com' };

describe('GET /api/v1/apps/event', () => {
  test('stores an anonymous app_selected event', async () => {
    const { status, json } = await sendEvent({ event: 'app_selected', app_id: DEMO_APPS.streakly.ios, app_store: 'apple_app_store' });
    expect(status).toBe(200);
    expect(json).toEqual({ data: { ok: true } });
    expect(await events()).toEqual([{ event: 'app_selected', app_id: '1488223190', app_store: 'apple_app_store', user_id: null }]);
  });

  test('stores the user when a valid token is sent', async () => {
    const token = await accessTokenFor(user);
    await sendEvent({ event: 'app_selected', app_id: DEMO_APPS.streakly.play, app_store: 'google_play_store' }, token);
    expect(await events()).toEqual([
      { event: 'app_selected', app_id: 'com.brightloop.streakly', app_store: 'google_play_store', user_id: 'usr_events1' },
    ]);
  });

  test('an invalid or billing-only token still records the event, without a user', async () => {
    const billing = await billingTokenFor(user);
    expect((await sendEvent({ event: 'app_selected', app_id: '1488223190', app_store: 'apple_app_store' }, billing)).status).toBe(200);
    expect((await sendEvent({ event: 'app_selected', app_id: '1488223190', app_store: 'apple_app_store' }, 'not-a-token')).status).toBe(200);
    expect((await events()).map((e) => e.user_id)).toEqual([null, null]);
  });

  test('stores the normalised app id', async () => {
    await sendEvent({ event: 'app_selected', app_id: 'id1488223190', app_store: 'apple_app_store' });
    expect((await events())[0].app_id).toBe('1488223190');
  });

  test.each([
    [{ event: 'app_deleted', app_id: '1488223190', app_store: 'apple_app_store' }, 'event: must be one of: app_selected'],
    [{ app_id: '1488223190', app_store: 'apple_app_store' }, 'event: must be one of: app_selected'],
    [{ event: 'app_selected', app_store: 'apple_app_store' }, 'app_id: is required'],
    [{ event: 'app_selected', app_id: 'com.example.app', app_store: 'apple_app_store' }, 'app_id: must be an App Store app id (digits, e.g. 1488223190)'],
    [{ event: 'app_selected', app_id: '1488223190', app_store: 'itunes' }, "app_store: must be 'apple_app_store' or 'google_play_store'"],
  ])('%j → 400 "%s", nothing stored', async (query, message) => {
    const { status, json } = await sendEvent(query);
    expect(status).toBe(400);
    expect(json.error).toEqual({ code: 'invalid_request', message });
    expect(await events()).toEqual([]);
  });

  test('POST is not allowed', async () => {
    const res = await fetch(`${api.url}/api/v1/apps/event`, { method: 'POST' });
    expect(res.status).toBe(405);
  });
});
