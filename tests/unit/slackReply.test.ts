// The pure parts of replying from Slack: Slack's request signature check (against signatures made by the fake's own
// implementation of the scheme), the Reply / "Reply in ARB" / sent-reply blocks of a review message within Block Kit's
// rules, and the reply form with each store's limit inside Slack's, its Draft part, and reading its input wherever it is.
import { describe, expect, test } from 'vitest';
import { formatReviewFor } from '@/server/destinations/format';
import type { SlackPayload } from '@/server/destinations/platforms/slack';
import { verifySlackRequest } from '@/server/slack/signature';
import { decodeFormState, draftInputBlockId, encodeFormState, readReplyInput, replyForm, REPLY_BLOCK_ID } from '@/server/slack/replyView';
import { slackSignatureHeaders } from '../fakes/slackOAuth';
import { slackProblems } from './format/platformRules';
import { reviewInput } from './format/sampleReviews';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const BODY = 'payload=%7B%22type%22%3A%22block_actions%22%7D';

describe('verifySlackRequest', () => {
  const now = 1_732_460_000;
  const signed = (secret = SECRET, ts = now, body = BODY) => {
    const h = slackSignatureHeaders(secret, body, ts);
    return { timestamp: h['X-Slack-Request-Timestamp'], signature: h['X-Slack-Signature'] };
  };

  test('takes a request signed with the secret within five minutes, either way', () => {
    expect(verifySlackRequest({ secret: SECRET, ...signed(), body: BODY, nowSeconds: now })).toEqual({ ok: true });
    expect(verifySlackRequest({ secret: SECRET, ...signed(SECRET, now - 300), body: BODY, nowSeconds: now }).ok).toBe(true);
    expect(verifySlackRequest({ secret: SECRET, ...signed(SECRET, now + 300), body: BODY, nowSeconds: now }).ok).toBe(true);
  });

  test('refuses another secret, a changed body, an old or future timestamp, and missing or malformed headers', () => {
    expect(verifySlackRequest({ secret: SECRET, ...signed('other'), body: BODY, nowSeconds: now })).toMatchObject({ ok: false, reason: expect.stringMatching(/does not match/) });
    expect(verifySlackRequest({ secret: SECRET, ...signed(), body: `${BODY}x`, nowSeconds: now }).ok).toBe(false);
    expect(verifySlackRequest({ secret: SECRET, ...signed(SECRET, now - 301), body: BODY, nowSeconds: now })).toMatchObject({ ok: false, reason: expect.stringMatching(/five minutes/) });
    expect(verifySlackRequest({ secret: SECRET, ...signed(SECRET, now + 301), body: BODY, nowSeconds: now }).ok).toBe(false);
    expect(verifySlackRequest({ secret: SECRET, timestamp: undefined, signature: signed().signature, body: BODY, nowSeconds: now }).ok).toBe(false);
    expect(verifySlackRequest({ secret: SECRET, timestamp: String(now), signature: undefined, body: BODY, nowSeconds: now }).ok).toBe(false);
    expect(verifySlackRequest({ secret: SECRET, timestamp: String(now), signature: 'v1=abc', body: BODY, nowSeconds: now }).ok).toBe(false);
    // A signature of the right shape but made for another timestamp (the header swapped for a fresh one).
    expect(verifySlackRequest({ secret: SECRET, timestamp: String(now), signature: signed(SECRET, now - 10).signature, body: BODY, nowSeconds: now }).ok).toBe(false);
  });
});

describe('the review message in Slack', () => {
  const blocksOf = (p: SlackPayload) => p.blocks;
  test('a Reply button that names the destination and the review, within Block Kit’s rules', () => {
    const m = formatReviewFor('slack', { ...reviewInput(), replyAction: { kind: 'button', value: 'dst_abcdefghijklmnopqrstuvwx:42' } });
    const body = (m as { body: SlackPayload }).body;
    expect(slackProblems(body)).toEqual([]);
    expect(blocksOf(body).at(-1)).toEqual({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Reply', emoji: true }, action_id: 'arb_reply', value: 'dst_abcdefghijklmnopqrstuvwx:42' }] });
  });

  test('a "Reply in ARB" link for channels whose clicks ARB cannot receive', () => {
    const m = formatReviewFor('slack', { ...reviewInput(), replyAction: { kind: 'link', url: 'https://arb.example/dashboard/reviews?review=42' } });
    const body = (m as { body: SlackPayload }).body;
    expect(slackProblems(body)).toEqual([]);
    expect(blocksOf(body).at(-1)).toMatchObject({ type: 'actions', elements: [{ text: { text: 'Reply in ARB' }, url: 'https://arb.example/dashboard/reviews?review=42' }] });
  });

  test('the sent reply with who sent it, escaped like review text (no mentions or links from it), and "Edit reply"', () => {
    const m = formatReviewFor('slack', {
      ...reviewInput(),
      replyAction: { kind: 'button', value: 'dst_abcdefghijklmnopqrstuvwx:42' },
      sentReply: { text: 'Thanks <!channel> — see <https://evil.example|here>', by: 'Jonas <@U123>', state: 'Pending publish' },
    });
    const body = (m as { body: SlackPayload }).body;
    expect(slackProblems(body)).toEqual([]);
    const raw = JSON.stringify(body.blocks);
    expect(raw).not.toContain('<!channel>');
    expect(raw).not.toContain('<@U123>');
    expect(raw).not.toContain('<https://evil.example');
    expect(raw).toContain('Reply by Jonas');
    expect(raw).toContain('Pending publish');
    expect(blocksOf(body).at(-1)).toMatchObject({ elements: [{ text: { text: 'Edit reply' } }] });
  });

  test('without a reply action nothing changes (e-mail digests, test messages)', () => {
    const m = formatReviewFor('slack', reviewInput());
    expect((m as { body: SlackPayload }).body.blocks.some((b) => b.type === 'actions')).toBe(false);
  });
});

describe('the reply form', () => {
  const review = { appTitle: 'Lumen Notes', authorName: 'kayak', rating: 2, title: 'Sync broke', body: 'Lost my notes <!here>' };
  const state = { destinationId: 'dst_abcdefghijklmnopqrstuvwx', reviewId: '42', responseUrl: 'https://hooks.slack.com/actions/T1/2/x' };

  test('Google Play: the store’s 350 characters; App Store: 5,970, capped at Slack’s 3,000 with a word on it', () => {
    const play = replyForm({ ...review, store: 'google_play_store' }, state, null) as { blocks: Array<{ type: string; element?: { max_length: number }; hint?: { text: string } }> };
    const input = play.blocks.find((b) => b.type === 'input')!;
    expect(input.element!.max_length).toBe(350);
    expect(input.hint!.text).toMatch(/^Google Play replies can be 350 characters at most\./);
    const ios = replyForm({ ...review, store: 'apple_app_store' }, state, null) as typeof play;
    const iosInput = ios.blocks.find((b) => b.type === 'input')!;
    expect(iosInput.element!.max_length).toBe(3000);
    expect(iosInput.hint!.text).toMatch(/5,970 characters at most\. Slack's form takes 3,000: write longer replies in ARB's inbox/);
  });

  test('the review is quoted escaped, its state rides along in private_metadata, and a sent reply is the starting text', () => {
    const form = replyForm({ ...review, store: 'apple_app_store' }, state, 'Thanks!') as { private_metadata: string; blocks: unknown[]; title: { text: string } };
    expect(form.title.text.length).toBeLessThanOrEqual(24);
    expect(JSON.stringify(form.blocks)).not.toContain('<!here>');
    expect(JSON.stringify(form.blocks)).toContain('"initial_value":"Thanks!"');
    expect(decodeFormState(form.private_metadata)).toEqual(state);
    expect(encodeFormState(state).length).toBeLessThan(3000);
    expect(decodeFormState('{"d":1}')).toBeNull();
    expect(decodeFormState('not json')).toBeNull();
  });

  type Blocks = Array<{ type: string; block_id?: string; elements?: Array<{ action_id?: string; text?: unknown }>; element?: { action_id?: string; initial_value?: string } }>;

  test('the Draft part: a button, a note, "Drafting…", or one line saying what to configure; block ids unique', () => {
    const blocksOf = (draft: Parameters<typeof replyForm>[3]) => (replyForm({ ...review, store: 'google_play_store' }, state, null, draft) as { blocks: Blocks }).blocks;
    const ready = blocksOf({ draft: { kind: 'ready', note: 'Could not draft a reply: no.' } });
    expect(ready.find((b) => b.type === 'actions')!.elements![0]).toMatchObject({ action_id: 'arb_draft_reply', text: { text: 'Draft a reply' } });
    expect(JSON.stringify(ready)).toContain('Could not draft a reply: no.');
    const working = blocksOf({ draft: { kind: 'working' } });
    expect(working.some((b) => b.type === 'actions')).toBe(false);
    expect(JSON.stringify(working)).toContain('Drafting a reply');
    const none = blocksOf({ draft: { kind: 'unavailable' } });
    expect(none.some((b) => b.type === 'actions')).toBe(false);
    expect(JSON.stringify(none)).toContain('aren’t enabled on this ARB server: its operator can turn them on');
    expect(JSON.stringify(none)).not.toMatch(/LLM_/);
    expect(blocksOf({}).some((b) => b.block_id?.startsWith('arb_draft'))).toBe(false);
    for (const blocks of [ready, working, none]) {
      const ids = blocks.map((b) => b.block_id).filter(Boolean);
      expect(new Set(ids).size).toBe(ids.length);
      // Within Block Kit's rules (the input block is the form's own, checked above).
      expect(slackProblems({ text: 'form', blocks: blocks.filter((b) => b.type !== 'input') })).toEqual([]);
    }
  });

  test('a draft comes under a new input block id with the draft as its value; the input is read wherever it is', () => {
    const blockId = draftInputBlockId();
    expect(blockId).not.toBe(REPLY_BLOCK_ID);
    expect(blockId.length).toBeLessThanOrEqual(255);
    expect(draftInputBlockId()).not.toBe(blockId);
    const form = replyForm({ ...review, store: 'google_play_store' }, state, 'Sent before', { input: { blockId, initial: 'The draft' } }) as { blocks: Blocks };
    const input = form.blocks.find((b) => b.type === 'input')!;
    expect(input).toMatchObject({ block_id: blockId, element: { action_id: 'text', initial_value: 'The draft' } });
    // A draft over the input's limit is not put in (the person would not be able to send it as it is).
    const long = replyForm({ ...review, store: 'google_play_store' }, state, null, { input: { blockId, initial: 'x'.repeat(351) } }) as { blocks: Blocks };
    expect(long.blocks.find((b) => b.type === 'input')!.element!.initial_value).toBeUndefined();

    const values = { [blockId]: { text: { value: 'Edited draft' } } };
    expect(readReplyInput({ blocks: form.blocks, state: { values } })).toEqual({ blockId, text: 'Edited draft' });
    expect(readReplyInput({ state: { values } })).toEqual({ blockId, text: 'Edited draft' });
    expect(readReplyInput({ state: { values: { reply: { text: { value: null } } } } })).toEqual({ blockId: 'reply', text: '' });
    expect(readReplyInput(undefined)).toEqual({ blockId: 'reply', text: '' });
  });
});
