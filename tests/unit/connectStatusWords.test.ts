import { describe, expect, test } from 'vitest';
import { connectedHeading, plainProblem, timeAgo } from '@/components/connect/statusWords';

describe('a connection’s problem in plain words', () => {
  test('the platforms’ “gone” errors become what happened and what to do', () => {
    expect(plainProblem('slack', 'Slack refused the webhook: it no longer exists — its channel was archived or removed (HTTP 410, channel_is_archived). Connect it again to keep receiving reviews.')).toBe(
      'Slack says this channel was archived. Reconnect to a new channel.',
    );
    expect(plainProblem('slack', 'Slack refused the webhook: … (HTTP 404, no_service).')).toMatch(/^Slack says this webhook no longer exists/);
    expect(plainProblem('discord', 'Discord refused the webhook: … (HTTP 404, 10015).')).toBe('Discord says this webhook was deleted. Create a new one and reconnect.');
    expect(plainProblem('mattermost', 'Mattermost refused the webhook: the incoming webhook is unknown or disabled on that Mattermost server (HTTP 400, web.incoming_webhook.invalid.app_error).')).toMatch(/^Mattermost says/);
    expect(plainProblem('webex', 'Discord asked to slow down (HTTP 429); waiting 2 s.')).toMatch(/slow down for a moment/);
  });

  test('a rule of one platform never rewrites another’s message; unknown messages pass through', () => {
    expect(plainProblem('discord', 'Slack refused the webhook (HTTP 410, channel_is_archived)')).toBe('Slack refused the webhook (HTTP 410, channel_is_archived)');
    expect(plainProblem('slack', 'The webhook could not be reached.')).toBe('The webhook could not be reached.');
    expect(plainProblem('slack', null)).toBeNull();
  });

  test('headings name the channel when known, else the platform', () => {
    expect(connectedHeading('slack', '#reviews', 'x')).toBe('Connected to #reviews');
    expect(connectedHeading('msteams', null, 'x')).toBe('Connected to your Microsoft Teams channel');
    expect(connectedHeading('webex', null, 'x')).toBe('Connected to your Webex space');
    expect(connectedHeading('email', null, 'ja…@example.com')).toBe('Sending reviews to ja…@example.com');
  });

  test('time ago', () => {
    const now = Date.parse('2024-06-01T12:00:00Z');
    expect(timeAgo('2024-06-01T11:59:58Z', now)).toBe('just now');
    expect(timeAgo('2024-06-01T11:59:30Z', now)).toBe('30 seconds ago');
    expect(timeAgo('2024-06-01T11:59:00Z', now)).toBe('1 minute ago');
    expect(timeAgo('2024-06-01T09:00:00Z', now)).toBe('3 hours ago');
  });
});
