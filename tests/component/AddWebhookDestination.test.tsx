// The dashboard's "Add destination" with the Webhook kind, against a loopback API: Webhook is offered there (and not
// on the home page's flow), plain http is refused as it is typed, the connect call carries the endpoint, and the
// signing secret from the answer is shown once with a sample payload and how to verify, until "I saved the secret".
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { encode as encodeBase64Url } from 'jose/base64url';
import AddDestination from '@/components/dashboard/destinations/AddDestination';
import ConnectFlow from '@/components/connect/ConnectFlow';
import { decodeConnectionPayload } from '@/server/connect/payload';
import { useConnectionStore, type SelectedApp } from '@/stores/connection';
import { useAuthStore } from '@/stores/auth';
import { json } from '@/tests/fakes/http';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import { notPreflight, ok, route, startApiFake, type ApiFake } from './support/apiFake';

const jwt = ['eyJhbGciOiJIUzI1NiJ9', encodeBase64Url(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600, email: 'ana@example.com', org: 'org_7', scope: 'full' })), 'sig'].join('.');
const APP: SelectedApp = { id: '1488223190', store: 'apple_app_store', title: 'Streakly: Habit Tracker' };
const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const DESTINATION = 'dst_WWWWWWWWWWWWWWWWWWWWWWWW';

let fake: ApiFake;
let connected = 0;

beforeEach(async () => {
  resetStores();
  connected = 0;
  useAuthStore.getState().setAuthData({ authToken: jwt, email: 'ana@example.com' });
  fake = await startApiFake([
    route('GET', '/api/v1/public/config', ok({ slack_oauth: false, discord_oauth: false, allow_private_webhooks: false })),
    route('GET', '/api/v1/apps/event', ok({ ok: true })),
    route('POST', '/api/v1/oauth/platform/connect', (_req, res) =>
      json(res, 200, { data: { destination_id: DESTINATION, platform: 'webhook', app: { app_id: APP.id, title: APP.title }, created: true, signing_secret: SECRET } }),
    ),
    route('GET', `/api/v1/public/destination/${DESTINATION}`, ok({ id: DESTINATION, platform: 'webhook', status: 'active', status_reason: null, label: null, target: 'https://hooks.example.com/…/arb', app: { app_id: APP.id, app_store: 'apple_app_store', title: APP.title }, warning: null, welcome: 'queued', queued: 1, delivered: 0, last_delivery_at: null, last_error: null })),
  ]);
});

afterEach(async () => {
  fake.restore();
  await fake.close();
});

describe('Add destination: Webhook', () => {
  test('offered in the dashboard only; http refused; the secret shown once with a sample payload and how to verify', async () => {
    const { user } = render(<AddDestination open onClose={() => undefined} onConnected={() => connected++} />);
    act(() => useConnectionStore.getState().setSelectedAppDetails(APP));
    await user.click(await screen.findByRole('radio', { name: /^Webhook/ }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const field = await screen.findByLabelText('Endpoint URL (https)');
    await user.click(field);
    await user.paste('http://hooks.example.com/arb');
    await user.tab();
    expect(await screen.findByText(/must start with https/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Connect Webhook' }) as HTMLButtonElement).disabled).toBe(true);

    await user.clear(field);
    await user.paste('https://hooks.example.com:8443/arb');
    await user.click(screen.getByRole('button', { name: 'Connect Webhook' }));

    const panel = (await screen.findByRole('heading', { name: 'Signing secret' }, { timeout: 10_000 })).closest('section')!;
    expect((within(panel).getByLabelText('Signing secret') as HTMLInputElement).value).toBe(SECRET);
    expect(within(panel).getByLabelText('Sample payload').textContent).toContain('"type": "review.created"');
    expect(within(panel).getByLabelText('Sample payload').textContent).toContain('"content_rating": 2');
    expect(within(panel).getByLabelText('Verification example').textContent).toContain("from 'standardwebhooks'");
    expect(panel.textContent).toMatch(/shown only this once/);
    expect(connected).toBe(1);

    const sent = fake.requests.filter(notPreflight).filter((r) => r.path === '/api/v1/oauth/platform/connect');
    expect(sent).toHaveLength(1);
    const body = JSON.parse(sent[0].body) as { platform: string; payload: string };
    expect(body.platform).toBe('webhook');
    expect(decodeConnectionPayload(body.payload).webhook_url).toBe('https://hooks.example.com:8443/arb');
    expect(sent[0].headers.authorization).toBe(`Bearer ${jwt}`);

    await user.click(within(panel).getByRole('button', { name: 'I saved the secret' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Signing secret' })).toBeNull());
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
  });

  test('the home page’s flow offers the six chat platforms and e-mail, not Webhook', async () => {
    render(<ConnectFlow />);
    act(() => useConnectionStore.getState().setSelectedAppDetails(APP));
    await screen.findByRole('radio', { name: /^Slack/ });
    expect(screen.queryByRole('radio', { name: /^Webhook/ })).toBeNull();
  });
});
