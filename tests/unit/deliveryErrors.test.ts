// What a status says when a message could not be delivered: the engine's recorded errors (server/destinations/send.ts
// and deliver.ts write them) in words, without the network's codes, with what to check.
import { describe, expect, test } from 'vitest';
import { describeDeliveryError, firstDeliveryProblem, firstMessageState } from '@/shared/deliveryErrors';
import { plainProblem } from '@/components/connect/statusWords';

describe('describeDeliveryError', () => {
  test.each([
    ['The webhook could not be reached (ECONNREFUSED).', 'the server refused the connection'],
    ['The webhook could not be reached (ENOTFOUND).', 'the host name does not exist'],
    ['The webhook could not be reached (EAI_AGAIN).', 'the host name could not be looked up just now'],
    ['The webhook could not be reached (ECONNRESET).', 'the server closed the connection before answering'],
    ['The webhook could not be reached (UND_ERR_SOCKET).', 'the server closed the connection before answering'],
    ['The webhook could not be reached (EHOSTUNREACH).', 'the server cannot be reached over the network'],
    ['The webhook did not answer within 10 seconds.', 'the server did not answer in time'],
    ['The webhook could not be reached (CERT_HAS_EXPIRED).', 'its secure connection could not be trusted (a TLS certificate problem)'],
    ['The webhook could not be reached (DEPTH_ZERO_SELF_SIGNED_CERT).', 'its secure connection could not be trusted (a TLS certificate problem)'],
    ['The webhook could not be reached (ERR_TLS_CERT_ALTNAME_INVALID).', 'its secure connection could not be trusted (a TLS certificate problem)'],
    ['Slack refused the webhook: it no longer exists — it was probably deleted, or its channel was removed (HTTP 404, no_service). Connect it again to keep receiving reviews.', 'the webhook was not found (it may have been deleted)'],
    ['Webex refused the webhook: it no longer exists — its channel was archived or removed (HTTP 410). Connect it again to keep receiving reviews.', 'the webhook no longer exists (its channel was archived or removed)'],
    ['Discord refused the webhook: its credentials are no longer valid (HTTP 401, 50027). Connect it again to keep receiving reviews.', 'the platform refused the webhook (it may have been revoked, or posting to the channel restricted)'],
    ['Microsoft Teams had a temporary problem (HTTP 503); ARB will try again.', 'the platform had a problem of its own'],
    ['Slack asked to slow down (HTTP 429). Waiting 5 s.', 'the platform asked ARB to slow down'],
    ['Slack did not accept this message (HTTP 400, invalid_payload).', 'the platform did not accept the message'],
    ['The webhook answered with a redirect (HTTP 302), which ARB does not follow. Connect it again with the webhook\'s final address.', 'the webhook answered with a redirect, which ARB does not follow'],
    ["The webhook's address leads to a private or internal network, and ARB only posts to public internet addresses.", 'its address leads to a private or internal network, where ARB does not post'],
    ['The webhook could not be reached (EWHATEVER).', 'the webhook could not be reached'],
  ])('%s → %s', (recorded, reason) => {
    const d = describeDeliveryError(recorded, 'slack');
    expect(d.reason).toBe(reason);
    expect(`${d.reason} ${d.check}`).not.toMatch(/\bE[A-Z]{3,}\b|CERT_|UND_ERR|ERR_TLS/);
  });

  test('what to check: the webhook and its channel for a missing webhook, the server for a refused connection, the address for e-mail', () => {
    expect(describeDeliveryError('(HTTP 404, no_service)').check).toBe('that the webhook URL is right and the channel still exists');
    expect(describeDeliveryError('The webhook could not be reached (ECONNREFUSED).').check).toMatch(/^that the webhook URL is right and that its server is up/);
    expect(describeDeliveryError('The mail server refused the address.', 'email')).toEqual({ reason: 'the mail server refused the address', check: 'that the e-mail address is right and that its mailbox accepts mail' });
  });

  test('words the engine already wrote are kept (a mail server, anything unknown)', () => {
    expect(describeDeliveryError('The outbox is full.').reason).toBe('the outbox is full');
  });
});

test('the first-message sentence: what happened, then what to check', () => {
  expect(firstDeliveryProblem('The webhook could not be reached (ECONNREFUSED).', 'slack')).toBe(
    'Connected, but the first message could not be delivered: the server refused the connection — check that the webhook URL is right and that its server is up and reachable from the internet.',
  );
  expect(firstDeliveryProblem('Slack refused the webhook: it no longer exists (HTTP 404, no_service).')).toBe(
    'Connected, but the first message could not be delivered: the webhook was not found (it may have been deleted) — check that the webhook URL is right and the channel still exists.',
  );
});

test('"delivered" only once a message got through', () => {
  expect(firstMessageState({ last_delivery_at: null, current_error: null })).toBe('not_yet');
  expect(firstMessageState({ last_delivery_at: null, current_error: 'x' })).toBe('failed');
  expect(firstMessageState({ last_delivery_at: new Date(), current_error: 'x' })).toBe('delivered');
});

test('the connect card never shows a network code: a recorded error with one is said in words', () => {
  expect(plainProblem('slack', 'The webhook could not be reached (ECONNREFUSED).')).toBe(
    'The last message could not be delivered: the server refused the connection — check that the webhook URL is right and that its server is up and reachable from the internet.',
  );
  expect(plainProblem('slack', 'Some words of the platform.')).toBe('Some words of the platform.');
});
