// A review fanned out to several destinations of one platform is formatted once (server/monitor/messages.ts) and
// serialised once (jsonBody, server/destinations/send.ts): each destination still gets exactly what the formatter
// makes of its own input, and anything that changes the input makes a new payload.
import { describe, expect, test } from 'vitest';
import { buildMessage, type OpenDelivery } from '@/server/monitor/messages';
import { formatFor } from '@/server/destinations/format';
import { jsonBody } from '@/server/destinations/send';

function delivery(over: Partial<OpenDelivery> = {}): OpenDelivery {
  return {
    id: 1, kind: 'new', review_version: 0, status: 'pending', attempts: 0, interrupted: false, interrupted_sends: 0, next_attempt_at: new Date(0), first_attempt_at: null,
    created_at: new Date('2024-05-14T15:41:09Z'), app_key: 'apple_app_store__123', app_store: 'apple_app_store', app_id: '123',
    app_title: 'Quiet Hours', app_icon_url: null, app_store_url: null, review_id: 42, store_review_id: 'r42', country: 'us',
    language: 'en', author_name: 'Ana', title: 'Great', body: 'Does what it says.', rating: 4, app_version: '2.1',
    written_at: null, updated_at: new Date('2024-05-14T15:41:09Z'), reply_text: null, reply_updated_at: null, permalink: null,
    sentiment: 'positive', sentiment_score: 0.7, at_rating: null, at_title: null, at_body: null, at_updated_at: null,
    prev_rating: null, prev_title: null, prev_body: null, welcome_recent: null, alert_episode_id: null, alert_since: null,
    alert_details: null, weekly_summary_id: null, summary_week_start: null, summary_method: null, summary_content: null,
    summary_note: null, ...over,
  };
}

const body = (m: Awaited<ReturnType<typeof buildMessage>>) => (m.kind === 'json' ? m.body : null);

describe('a message formatted once per platform', () => {
  test('the same review to two destinations of a platform: one payload, the one the formatter makes', async () => {
    const a = await buildMessage('discord', 'https://discord.com/api/webhooks/1/a', delivery({ id: 1 }), { id: 'd1', slackTeamId: null });
    const b = await buildMessage('discord', 'https://discord.com/api/webhooks/2/b', delivery({ id: 2 }), { id: 'd2', slackTeamId: null });
    expect(body(b)).toBe(body(a));
    expect(jsonBody(body(b))).toBe(jsonBody(body(a)));
    expect(jsonBody(body(a))).toBe(JSON.stringify(body(a)));
    // What the formatter makes of that input, formatted afresh.
    const fresh = formatFor('discord', { type: 'review', input: { kind: 'new', reviewId: '42', app: { appId: '123', store: 'apple_app_store', title: 'Quiet Hours', iconUrl: null, storeUrl: 'https://apps.apple.com/app/id123' }, review: { store: 'apple_app_store', appId: '123', storeReviewId: 'r42', country: 'us', language: 'en', authorName: 'Ana', title: 'Great', body: 'Does what it says.', rating: 4, appVersion: '2.1', createdAt: null, updatedAt: new Date('2024-05-14T15:41:09Z'), replyText: null, replyUpdatedAt: null, permalink: null }, sentiment: { label: 'positive', score: 0.7 }, translation: null, previous: null, replyAction: null } });
    expect(jsonBody(body(a))).toBe(JSON.stringify(body(fresh)));
  });

  test('each platform its own payload', async () => {
    const slack = await buildMessage('slack', 'x', delivery(), { id: 'd1', slackTeamId: null });
    const teams = await buildMessage('msteams', 'x', delivery(), { id: 'd1', slackTeamId: null });
    expect(JSON.stringify(body(slack))).not.toBe(JSON.stringify(body(teams)));
  });

  test('what changes the input changes the payload: an edit, a translation, a renamed app', async () => {
    const base = JSON.stringify(body(await buildMessage('mattermost', 'x', delivery())));
    const variants: Array<[Partial<OpenDelivery>, string]> = [
      [{ kind: 'updated', review_version: 1, at_body: 'Now it crashes.', at_rating: 2, at_title: 'Meh', at_updated_at: new Date('2024-05-16T00:00:00Z') }, 'Now it crashes.'],
      [{ app_title: 'Loud Hours' }, 'Loud Hours'],
    ];
    for (const [over, words] of variants) {
      const changed = JSON.stringify(body(await buildMessage('mattermost', 'x', delivery(over))));
      expect(changed).not.toBe(base);
      expect(changed).toContain(words);
    }
    const translated = JSON.stringify(body(await buildMessage('mattermost', 'x', delivery(), undefined, { language: 'fr', title: 'Super', body: 'Fait ce qu’il dit.' })));
    expect(translated).toContain('Fait ce qu’il dit.');
    expect(JSON.stringify(body(await buildMessage('mattermost', 'x', delivery())))).toBe(base);
  });
});
