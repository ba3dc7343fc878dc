// A destination whose webhook cannot be reached is not "Connected · Active": GET v1/public/destination/{id} says that
// the first message could not be delivered, why in words (never the network's code) and what to check, and says
// "delivered" only once a message got through. Against the engine running in this process, with a loopback port
// nothing listens on (ALLOW_PRIVATE_WEBHOOKS is on in tests).
import net from 'node:net';
import { expect, test } from 'vitest';
import { call } from '../helpers/request';
import { connectWorldWithEngine, marker, newIosApp, newIp, payloadFor } from './support/connectWorld';

const t = connectWorldWithEngine();

type Status = { status: string; first_message: string; first_delivery_problem: string | null; last_error: string | null; queued: number; delivered: number };

/** A loopback port that refuses connections: taken, then given back. */
async function refusingPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function connectSlack(appId: string, url: string): Promise<string> {
  const r = await call<{ destination_id: string }>(t.w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack', payload: payloadFor({ app_id: appId, webhook_url: url }) }, { ip: newIp() });
  expect(r.status).toBe(200);
  return r.json.data.destination_id;
}

const statusOf = async (id: string) => (await call<Status>(t.w.api, 'GET', `/api/v1/public/destination/${id}`, undefined, { ip: newIp() })).json.data;

test('a webhook whose server refuses connections: "the first message could not be delivered", why and what to check', async () => {
  const app = newIosApp(t.w, 'Refused Notes');
  t.w.feed.publish(app.appId, 'us', { content: `Text ${marker(1)}`, updated: new Date(Date.now() - 3600_000) });
  const url = `http://127.0.0.1:${await refusingPort()}/services/T0REFUSED/B0REFUSED/refusedrefusedrefused1234`;
  const id = await connectSlack(app.appId, url);

  await expect.poll(async () => (await statusOf(id)).first_message, { timeout: 20_000 }).toBe('failed');
  const status = await statusOf(id);
  expect(status).toMatchObject({ status: 'active', delivered: 0 });
  expect(status.queued).toBeGreaterThan(0); // kept, tried again later
  expect(status.first_delivery_problem).toBe(
    'Connected, but the first message could not be delivered: the server refused the connection — check that the webhook URL is right and that its server is up and reachable from the internet.',
  );
  expect(status.first_delivery_problem).not.toMatch(/ECONNREFUSED/);
});

test('a webhook that answers: "delivered" once its first message got through, no problem', async () => {
  const app = newIosApp(t.w, 'Answered Notes');
  const hook = t.w.chat.hook('slack');
  const id = await connectSlack(app.appId, hook.url);
  await hook.waitForDelivered(1);
  await expect.poll(async () => (await statusOf(id)).first_message, { timeout: 10_000 }).toBe('delivered');
  expect((await statusOf(id)).first_delivery_problem).toBeNull();
});
