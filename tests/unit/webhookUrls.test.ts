import { describe, expect, test } from 'vitest';
import { isPrivateHost, validateWebhookUrl, type WebhookPlatform } from '@/shared/webhookUrls';

const ok = (platform: WebhookPlatform, url: string, allowPrivate = false) => {
  const r = validateWebhookUrl(platform, url, { allowPrivate });
  if (!r.ok) throw new Error(`expected ${url} to pass for ${platform}: ${r.message}`);
  return r;
};
const refused = (platform: WebhookPlatform, url: string, allowPrivate = false) => {
  const r = validateWebhookUrl(platform, url, { allowPrivate });
  if (r.ok) throw new Error(`expected ${url} to be refused for ${platform}`);
  expect(r.error).toBe(r.message);
  return r.message;
};

const SLACK = 'https://hooks.slack.com/services/T024BE7LD/B01ABCDEF12/abcDEF123ghiJKL456mnoPQR';
const TEAMS =
  'https://prod-27.westeurope.logic.azure.com:443/workflows/3f1e0c2ab4d54c6f9e8d7c6b5a493827/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=Xk3u2r1Q-abc_DEF123';
const TEAMS_PP =
  'https://default0f3e1b2c4d5e6f7a8b9c0d1e2f3a4b.5c.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/9a8b7c6d5e4f40312a1b2c3d4e5f6a7b/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=AbC123';
const MATTERMOST = 'https://chat.example.org/hooks/3x9k2m4n6p8q1r5s7t0u2w4y6z';
const DISCORD = 'https://discord.com/api/webhooks/1234567890123456789/aBcD-eFgH_iJkLmNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234';
const WEBEX = 'https://webexapis.com/v1/webhooks/incoming/Y2lzY29zcGFyazovL3VzL1dFQkhPT0svOTZhYmMyYWEtM2RjYy0xMWU1LWExNTItZmUzNDgxOWNkYzlh';

describe('validateWebhookUrl: the real shapes pass', () => {
  test.each([
    ['slack', SLACK],
    ['slack', 'https://hooks.slack-gov.com/services/T0001/B0001/XXXXXXXXXXXXXXXX'],
    ['msteams', TEAMS],
    ['msteams', TEAMS_PP],
    ['mattermost', MATTERMOST],
    ['mattermost', 'https://example.com/mattermost/hooks/abcdefghijklmnopqrstuvwxyz'],
    ['discord', DISCORD],
    ['discord', 'https://discordapp.com/api/webhooks/1/abc'],
    ['discord', 'https://discord.com/api/v10/webhooks/1234/tok_en-1'],
    ['discord', 'https://canary.discord.com/api/webhooks/1234/token'],
    ['webex', WEBEX],
    ['webex', 'https://api.ciscospark.com/v1/webhooks/incoming/Y2lzY29zcGFyazovL3Vz'],
  ] as const)('%s %s', (platform, url) => {
    const r = ok(platform, url);
    expect(r.warning).toBeUndefined();
  });

  test('surrounding spaces are trimmed and the whole Teams query string (sig) is kept', () => {
    const r = ok('msteams', `  ${TEAMS}\n`);
    expect(r.url).toContain('sig=Xk3u2r1Q-abc_DEF123');
    expect(new URL(r.url).searchParams.get('api-version')).toBe('2016-06-01');
  });

  test('legacy Teams connector URLs are accepted with a warning that they are being retired', () => {
    const r = ok('msteams', 'https://contoso.webhook.office.com/webhookb2/1a2b3c@4d5e6f/IncomingWebhook/7a8b9c/0d1e2f');
    expect(r.warning).toMatch(/retiring/);
    expect(ok('msteams', 'https://outlook.office.com/webhook/abc@def/IncomingWebhook/123/456').warning).toMatch(/Workflows/);
  });
});

describe('validateWebhookUrl: wrong shapes are refused with a message a person understands', () => {
  test('the message says what the URL should look like', () => {
    expect(refused('slack', 'https://example.com/hook')).toBe(
      "That isn't a Slack incoming-webhook URL. It should look like https://hooks.slack.com/services/T000/B000/XXXX.",
    );
    expect(refused('discord', SLACK)).toMatch(/^That isn't a Discord webhook URL\. It should look like https:\/\/discord\.com\/api\/webhooks\//);
    expect(refused('webex', DISCORD)).toMatch(/Webex/);
    expect(refused('msteams', SLACK)).toMatch(/Microsoft Teams Workflows/);
    expect(refused('mattermost', 'https://chat.example.org/hooks/TOO-SHORT')).toMatch(/Mattermost/);
  });

  test('Slack Workflow Builder links are named as such', () => {
    expect(refused('slack', 'https://hooks.slack.com/triggers/T024BE7LD/1234567890/abcdef')).toMatch(/Workflow Builder/);
    expect(refused('slack', 'https://hooks.slack.com/workflows/T024BE7LD/A012/345/abc')).toMatch(/Workflow Builder/);
  });

  test('only https, only port 443, never a user name or password', () => {
    expect(refused('slack', SLACK.replace('https:', 'http:'))).toMatch(/https:\/\//);
    expect(refused('slack', SLACK.replace('hooks.slack.com', 'hooks.slack.com:8443'))).toMatch(/443/);
    expect(ok('slack', SLACK.replace('hooks.slack.com', 'hooks.slack.com:443')).url).toBe(SLACK);
    expect(refused('slack', SLACK.replace('https://', 'https://user:pass@'))).toMatch(/user name or password/);
    expect(refused('discord', 'javascript:alert(1)')).toMatch(/Discord/);
    expect(refused('discord', 'not a url')).toMatch(/Discord/);
    expect(refused('slack', '   ')).toMatch(/Paste the Slack webhook URL/);
  });

  test('look-alike hosts are refused', () => {
    expect(refused('slack', 'https://hooks.slack.com.evil.example/services/T0/B0/xyz')).toMatch(/Slack/);
    expect(refused('discord', 'https://discord.com.evil.example/api/webhooks/1/abc')).toMatch(/Discord/);
    expect(refused('msteams', 'https://prod-1.westus.logic.azure.com.evil.example/workflows/abc/triggers/manual/paths/invoke?sig=x')).toMatch(/Teams/);
    expect(refused('webex', 'https://webexapis.com.evil.example/v1/webhooks/incoming/abc')).toMatch(/Webex/);
  });

  test('a Teams Workflows URL without its signature is refused', () => {
    expect(refused('msteams', TEAMS.replace(/&sig=[^&]+/, ''))).toMatch(/sig=/);
  });

  test("Discord's Slack- and GitHub-compatible endpoints are refused", () => {
    expect(refused('discord', `${DISCORD}/slack`)).toMatch(/\/slack/);
    expect(refused('discord', `${DISCORD}/github`)).toMatch(/\/github/);
  });

  test('Mattermost on a private network or a bare intranet name is refused', () => {
    for (const host of ['127.0.0.1', '10.0.0.5', '169.254.169.254', '192.168.1.10', '172.20.0.1', '[::1]', '[fd00::1]', 'localhost', 'mattermost', 'chat.internal']) {
      expect(refused('mattermost', `https://${host}/hooks/abcdefghijklmnopqrstuvwxyz`)).toMatch(/private network/);
    }
  });

  test('e-mail is not a webhook platform', () => {
    expect(validateWebhookUrl('email', 'someone@example.com')).toMatchObject({ ok: false });
  });
});

describe('validateWebhookUrl: allowPrivate (tests only)', () => {
  test('lets http and loopback hosts through when the path has the platform shape', () => {
    expect(ok('slack', 'http://127.0.0.1:40123/services/T000/B000/xxx', true).url).toBe('http://127.0.0.1:40123/services/T000/B000/xxx');
    ok('discord', 'http://127.0.0.1:40123/api/webhooks/1/abc', true);
    ok('webex', 'http://localhost:5000/v1/webhooks/incoming/abc', true);
    ok('msteams', 'http://127.0.0.1:5000/workflows/abc123/triggers/manual/paths/invoke?api-version=1&sig=s', true);
    ok('mattermost', 'http://127.0.0.1:5000/hooks/abcdefghijklmnopqrstuvwxyz', true);
    ok('mattermost', 'http://10.1.2.3:8065/hooks/abcdefghijklmnopqrstuvwxyz', true);
  });

  test('still refuses a loopback URL whose path is not the platform shape', () => {
    refused('slack', 'http://127.0.0.1:40123/api/webhooks/1/abc', true);
    refused('discord', 'http://127.0.0.1:40123/services/T000/B000/xxx', true);
    refused('mattermost', 'http://127.0.0.1:40123/hooks/short', true);
  });

  test('is off by default: the same loopback URLs are refused', () => {
    refused('slack', 'http://127.0.0.1:40123/services/T000/B000/xxx');
    refused('discord', 'https://127.0.0.1/api/webhooks/1/abc');
    refused('mattermost', 'https://127.0.0.1/hooks/abcdefghijklmnopqrstuvwxyz');
  });

  test('does not let a public non-platform host pass for a fixed-host platform', () => {
    refused('slack', 'http://example.com/services/T000/B000/xxx', true);
  });
});

describe('isPrivateHost', () => {
  test.each(['0.0.0.0', '10.1.1.1', '100.64.0.1', '127.0.0.1', '169.254.169.254', '172.31.255.255', '192.168.0.1', '224.0.0.1', '255.255.255.255', '[::]', '[::ffff:7f00:1]', '[fe80::1]'])(
    '%s is private',
    (h) => expect(isPrivateHost(h)).toBe(true),
  );
  test.each(['8.8.8.8', '172.32.0.1', 'chat.example.org', '[2606:4700::1111]'])('%s is public', (h) => expect(isPrivateHost(h)).toBe(false));
});
