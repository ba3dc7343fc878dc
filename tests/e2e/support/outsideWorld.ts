/**
 * The outside world of the end-to-end run, on loopback, composed from the project's fakes (tests/fakes): one iTunes
 * host (Search/Lookup API + the App Store review feed), one Google Play host (store pages + reviews), both serving the
 * demo catalog (tests/fixtures/catalog.ts), an SMTP server, and the chat webhook receivers. Plus a small control
 * API, because the tests run in Playwright worker processes and the fakes live here in the runner process:
 *
 *   GET /__control/mail?to=<address>&count=<n>&timeout=<ms>      messages to <address> once there are ≥ n
 *   GET /__control/requests?fake=<itunes|play|chat>&path=<prefix>&count=<n>&timeout=<ms>
 *   /__control/connect/…                                          the connect flow's routes (connectWorld.ts)
 *   /__control/store-apis/…                                       App Store Connect and Play Developer API apps (storeApis.ts)
 *   /__control/zendesk/…                                          Zendesk's agents, webhooks and tickets (zendeskWorld.ts)
 *
 * Captcha: no hCaptcha widget can load offline, so the server runs without HCAPTCHA_SECRET (captcha off, as in a
 * fresh `npm start`); the captcha check itself is covered by the API tests against tests/fakes/hcaptcha.ts.
 */
import { json, startFakeServer, type FakeHandler, type FakeServer, type RecordedRequest } from '../../fakes/http';
import { itunesRoutes } from '../../fakes/itunes';
import { googlePlayStoreRoutes } from '../../fakes/googlePlay';
import { createDemoCatalog } from '../../fixtures/catalog';
import { appStoreFeedRoutes, createAppStoreFeed } from '../../fakes/appStoreFeed';
import { createGooglePlayReviews, googlePlayReviewsRoutes } from '../../fakes/googlePlayReviews';
import { startFakeSmtp, type ReceivedMail } from '../../fakes/smtp';
import { startChatWebhooks } from '../../fakes/chatWebhooks';
import { SLOW_SEARCH_TERM, type Mail, type SeenRequest } from './control';
import { startConnectFakes } from './connectWorld';
import { startStoreApiFakes } from './storeApis';
import { startZendeskFake } from './zendeskWorld';

export type OutsideWorld = {
  /** Environment for the real server: where the outside services are. */
  serverEnv: Record<string, string>;
  controlUrl: string;
  close(): Promise<void>;
};

const MAX_WAIT_MS = 30_000;

/** Store searches for SLOW_SEARCH_TERM answer late (and find nothing): a request the browser still has in flight. */
const SLOW_ANSWER_MS = 3_000;
const slowSearchTerm: FakeHandler = async (req) => {
  const term = req.query.get('term') ?? req.query.get('q') ?? '';
  if ((req.path === '/search' || req.path === '/store/search') && term.toLowerCase().includes(SLOW_SEARCH_TERM)) {
    await new Promise((r) => setTimeout(r, SLOW_ANSWER_MS));
  }
  return false; // then answered by the store's own routes
};

/** Resolves when `ready()` is true or the time is up; `subscribe` registers a wake-up call for new arrivals. */
async function waitFor(ready: () => boolean, subscribe: (wake: () => void) => void, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + Math.min(timeoutMs, MAX_WAIT_MS);
  while (!ready()) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, left);
      subscribe(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }
  return true;
}

function addressedTo(mail: ReceivedMail, address: string): boolean {
  const a = address.toLowerCase();
  return mail.envelopeTo.some((t) => t.toLowerCase() === a) || mail.to.toLowerCase().includes(a);
}

function toMail(m: ReceivedMail): Mail {
  return { to: m.envelopeTo, from: m.from, subject: m.subject, text: m.text, html: m.html };
}

function toSeen(r: RecordedRequest): SeenRequest {
  return { method: r.method, path: r.path, query: Object.fromEntries(r.query), body: r.body };
}

export async function startOutsideWorld(): Promise<OutsideWorld> {
  const started: Array<{ close(): Promise<void> }> = [];
  try {
    const catalog = createDemoCatalog();
    const feed = createAppStoreFeed();
    const itunes = await startFakeServer([slowSearchTerm, itunesRoutes(catalog), appStoreFeedRoutes(feed)]);
    started.push(itunes);
    const play = await startFakeServer([slowSearchTerm, googlePlayStoreRoutes(catalog), googlePlayReviewsRoutes(createGooglePlayReviews())]);
    started.push(play);
    const smtp = await startFakeSmtp();
    started.push(smtp);
    const chat = await startChatWebhooks();
    started.push(chat);
    // The connect flow's fakes and control routes (Slack/Discord OAuth, per-test apps, reviews, receivers).
    const connect = await startConnectFakes({ catalog, feed, chat });
    started.push(connect);
    // App Store Connect and the Google Play Developer API (store credentials, replies).
    const storeApis = await startStoreApiFakes(catalog);
    started.push(storeApis);
    // Zendesk's Support API (ZENDESK_BASE_URL) and its agents' side (comments, solving) firing the signed webhook.
    const zendesk = await startZendeskFake();
    started.push(zendesk);

    const hosts: Record<string, FakeServer> = { itunes, play, chat: chat.server };
    const mailWaiters: Array<() => void> = [];
    let closed = false;
    // The SMTP fake wakes only its own waiters: keep one wait for "the next message" armed and relay it to ours.
    const relayMail = (): void => {
      if (closed) return;
      smtp.waitForMessages(smtp.messages.length + 1, MAX_WAIT_MS).then(
        () => {
          mailWaiters.splice(0).forEach((w) => w());
          relayMail();
        },
        relayMail, // nothing arrived within the window: wait again
      );
    };
    relayMail();

    const control = await startFakeServer([
      async (req, res) => {
        const count = Number(req.query.get('count') ?? 0);
        const timeout = Number(req.query.get('timeout') ?? 15_000);
        if (req.path === '/__control/mail') {
          const to = req.query.get('to') ?? '';
          if (!to) return json(res, 400, { error: 'to= is required' }), true;
          const mine = () => smtp.messages.filter((m) => addressedTo(m, to));
          const ok = await waitFor(() => mine().length >= count, (w) => mailWaiters.push(w), timeout);
          if (!ok) return json(res, 408, { error: `expected ${count} messages to ${to}, got ${mine().length}` }), true;
          json(res, 200, { messages: mine().map(toMail) });
          return true;
        }
        if (req.path === '/__control/requests') {
          const host = hosts[req.query.get('fake') ?? ''];
          if (!host) return json(res, 400, { error: `fake= must be one of ${Object.keys(hosts).join(', ')}` }), true;
          const prefix = req.query.get('path') ?? '';
          const matching = () => host.requests.filter((r) => r.path.startsWith(prefix));
          try {
            await host.waitForRequests(count, (r) => r.path.startsWith(prefix), Math.min(timeout, MAX_WAIT_MS));
          } catch {
            return json(res, 408, { error: `expected ${count} requests under ${prefix || '/'}, got ${matching().length}` }), true;
          }
          json(res, 200, { requests: matching().map(toSeen) });
          return true;
        }
        return false;
      },
      connect.control,
      storeApis.control,
      zendesk.control,
    ]);
    started.push(control);

    return {
      serverEnv: { ITUNES_BASE_URL: itunes.url, GOOGLE_PLAY_BASE_URL: play.url, SMTP_URL: smtp.url, MAIL_FROM: 'ARB <reviews@arb.test>', ...connect.env, ...storeApis.env, ...zendesk.env },
      controlUrl: control.url,
      async close() {
        closed = true;
        await Promise.all(started.map((s) => s.close()));
      },
    };
  } catch (err) {
    await Promise.all(started.map((s) => s.close().catch(() => undefined)));
    throw err;
  }
}
