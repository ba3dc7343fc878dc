// SSRF guard of the webhook sender: private, loopback, link-local and metadata addresses are refused at connect time
// — literal IPs, IPv4-mapped IPv6, and DNS names that resolve to them — redirects are never followed, answers are
// size-capped and time-bounded. The receiver counts prove that a refused request never reached it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWebhookSender } from '@/server/destinations/send';
import { isPublicAddress, type Resolver } from '@/server/destinations/ssrf';
import { classifyWebhookResponse } from '@/server/destinations/deliver';
import { startChatWebhooks, type ChatWebhooks } from '../fakes/chatWebhooks';
import { startFakeServer, type FakeServer } from '../fakes/http';

let chat: ChatWebhooks;
let big: FakeServer;

beforeAll(async () => {
  chat = await startChatWebhooks();
  big = await startFakeServer([
    (req, res) => {
      if (req.path === '/huge') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('x'.repeat(5 * 1024 * 1024));
        return true;
      }
      if (req.path === '/never') return new Promise<boolean>(() => {}); // never answers
      if (req.path === '/drip') {
        // Answers at once, then a byte every 100 ms for ever: no single wait is long, the whole exchange is.
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        const drip = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(drip));
        return true;
      }
      return false;
    },
  ]);
});

afterAll(async () => {
  await chat.close();
  await big.close();
});

const strict = createWebhookSender({ allowPrivate: false });

describe('address classification', () => {
  test.each([
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '255.255.255.255', '224.0.0.1', '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:169.254.169.254',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  test.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('with ALLOW_PRIVATE_WEBHOOKS off', () => {
  test('refuses 127.0.0.1 before anything reaches the receiver', async () => {
    const hook = chat.hook('mattermost');
    const res = await strict.postJson(hook.url, { text: 'hi' });
    expect(res).toMatchObject({ ok: false, status: 0, failure: 'blocked_address' });
    expect(hook.requests).toHaveLength(0);
    expect(classifyWebhookResponse('mattermost', res).type).toBe('gone');
  });

  test.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:9/hooks/x',
    'http://[::ffff:127.0.0.1]:9/hooks/x',
    'http://[::ffff:7f00:1]:9/hooks/x',
    'http://0.0.0.0:9/hooks/x',
    'http://10.0.0.1:9/hooks/x',
    'http://100.64.0.1:9/hooks/x',
    'http://2130706433:9/hooks/x', // 127.0.0.1 written as one number
  ])('refuses the literal address in %s', async (url) => {
    const res = await strict.postJson(url, { text: 'hi' });
    expect(res.failure).toBe('blocked_address');
  });

  test('refuses a DNS name that resolves to a private address, and the receiver never hears of it', async () => {
    const hook = chat.hook('slack');
    const rebinding: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const sender = createWebhookSender({ allowPrivate: false, resolve: rebinding });
    const url = hook.url.replace('127.0.0.1', 'hooks.evil.example');
    const res = await sender.postJson(url, { text: 'hi' });
    expect(res.failure).toBe('blocked_address');
    expect(res.error).toMatch(/hooks\.evil\.example points to 127\.0\.0\.1/);
    expect(hook.requests).toHaveLength(0);
    await sender.close();
  });

  test('refuses a name whose answer mixes public and private addresses (rebinding)', async () => {
    const hook = chat.hook('slack');
    const mixed: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ];
    const sender = createWebhookSender({ allowPrivate: false, resolve: mixed });
    const res = await sender.postJson(hook.url.replace('127.0.0.1', 'mixed.example'), { text: 'hi' });
    expect(res.failure).toBe('blocked_address');
    expect(hook.requests).toHaveLength(0);
    await sender.close();
  });
});

describe('whatever ALLOW_PRIVATE_WEBHOOKS says', () => {
  const relaxed = createWebhookSender({ allowPrivate: true, timeoutMs: 500 });

  test('the injected resolver is what connects (control for the DNS test above)', async () => {
    const hook = chat.hook('slack');
    const sender = createWebhookSender({ allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const res = await sender.postJson(hook.url.replace('127.0.0.1', 'receiver.test'), { text: 'hi' });
    expect(res).toMatchObject({ ok: true, status: 200 });
    expect(hook.delivered()).toHaveLength(1);
    await sender.close();
  });

  test('never follows a redirect, so the redirect target gets nothing', async () => {
    const target = chat.hook('slack');
    const url = chat.redirectUrl('slack', target.url);
    const res = await relaxed.postJson(url, { text: 'hi' });
    expect(res).toMatchObject({ ok: false, status: 302, failure: 'redirect' });
    expect(target.requests).toHaveLength(0);
    expect(classifyWebhookResponse('slack', res)).toMatchObject({ type: 'gone' });
  });

  test('caps the answer it reads', async () => {
    // Its own sender: the huge answer streams for a while on a loaded machine, and 500 ms is the other test's point.
    const patient = createWebhookSender({ allowPrivate: true, timeoutMs: 15_000 });
    const res = await patient.postJson(`${big.url}/huge`, {});
    await patient.close();
    expect(res.ok).toBe(true);
    expect(res.body.length).toBeLessThanOrEqual(64 * 1024);
  });

  test('gives up on a receiver that never answers', async () => {
    const started = Date.now();
    const res = await relaxed.postJson(`${big.url}/never`, {});
    expect(res.failure).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(classifyWebhookResponse('webex', res).type).toBe('transient');
  });

  test('bounds the whole exchange, not each wait: an answer that trickles in for ever', async () => {
    const started = Date.now();
    const res = await relaxed.postJson(`${big.url}/drip`, {});
    expect(res.failure).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
