/**
 * The connect flow in the browser, against a loopback API: the steps driven by the flow's store, the continue
 * button enabled only when the step is complete, the webhook checked as it is pasted, the v2 payload the browser
 * builds, the install buttons shown only when the server offers them, and the status card after connecting.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { notPreflight, ok, route, startApiFake, type ApiFake } from './support/apiFake';
import { json, type RecordedRequest } from '@/tests/fakes/http';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import ConnectFlow from '@/components/connect/ConnectFlow';
import { decodeConnectionPayload } from '@/server/connect/payload';
import { useConnectionStore, type SelectedApp } from '@/stores/connection';

const SLACK_URL = 'https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefABCDEF123456';
const DISCORD_URL = 'https://discord.com/api/webhooks/123456789012345678/abcdefABCDEF';
const IOS_APP: SelectedApp = { id: '1488223190', store: 'apple_app_store', title: 'Streakly: Habit Tracker' };
const PLAY_APP: SelectedApp = { id: 'com.brightloop.streakly', store: 'google_play_store', title: 'Streakly' };

let fake: ApiFake;
let config: { slack_oauth: boolean; discord_oauth: boolean; allow_private_webhooks: boolean };
let destination: Record<string, unknown>;
let connectAnswer: (req: RecordedRequest, res: Parameters<Parameters<typeof route>[2]>[1]) => void;
/** Status reads wait for this (a test can hold them back). */
let statusGate: Promise<void>;

const connectCalls = () => fake.requests.filter((r) => notPreflight(r) && r.path === '/api/v1/oauth/platform/connect');

beforeEach(async () => {
  resetStores();
  config = { slack_oauth: false, discord_oauth: false, allow_private_webhooks: false };
  statusGate = Promise.resolve();
  destination = {
    id: 'dst_AAAAAAAAAAAAAAAAAAAAAAAA',
    platform: 'slack',
    status: 'active',
    status_reason: null,
    label: null,
    target: 'https://hooks.slack.com/…3456',
    app: { app_id: IOS_APP.id, app_store: 'apple_app_store', title: IOS_APP.title },
    warning: null,
    welcome: 'queued',
    queued: 6,
    delivered: 0,
    last_delivery_at: null,
    last_error: null,
  };
  connectAnswer = (_req, res) => json(res, 200, { data: { destination_id: 'dst_AAAAAAAAAAAAAAAAAAAAAAAA', platform: 'slack', app: { app_id: IOS_APP.id, title: IOS_APP.title } } });
  fake = await startApiFake([
    route('GET', '/api/v1/public/config', (_req, res) => json(res, 200, { data: config })),
    route('GET', '/api/v1/apps/event', ok({ ok: true })),
    route('POST', '/api/v1/oauth/platform/connect', (req, res) => connectAnswer(req, res)),
    route('GET', '/api/v1/public/destination/dst_AAAAAAAAAAAAAAAAAAAAAAAA', async (_req, res) => {
      await statusGate;
      json(res, 200, { data: destination });
    }),
  ]);
});

afterEach(async () => {
  fake.restore();
  await fake.close();
});

function pick(app: SelectedApp) {
  act(() => useConnectionStore.getState().setSelectedAppDetails(app));
}

async function toWebhookStep(user: ReturnType<typeof render>['user'], platform = 'Slack') {
  await user.click(screen.getByRole('radio', { name: new RegExp(`^${platform}`) }));
  await user.click(screen.getByRole('button', { name: 'Continue' }));
}

/** On to the Slack webhook step, with a valid Slack URL pasted (Connect is then enabled). */
async function toSlackUrlPasted(user: ReturnType<typeof render>['user']) {
  await toWebhookStep(user);
  await user.click(await screen.findByLabelText('Slack webhook URL'));
  await user.paste(SLACK_URL);
}

describe('step 1: the platform', () => {
  test('starts at choosing the platform, Slack chosen, Continue enabled', async () => {
    pick(IOS_APP);
    render(<ConnectFlow />);
    expect(await screen.findByRole('group', { name: 'Where should the reviews go?' })).toBeInTheDocument();
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['slack', 'msteams', 'mattermost', 'discord', 'webex', 'googlechat', 'telegram', 'email']);
    expect(screen.getByRole('radio', { name: /^Slack/ })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(useConnectionStore.getState().connectionState).toBe('choosing_platform');
  });

  test('Continue moves to the webhook step of the chosen platform and focuses its heading', async () => {
    pick(IOS_APP);
    const { user } = render(<ConnectFlow />);
    await toWebhookStep(user, 'Discord');
    const heading = await screen.findByRole('heading', { name: 'Connect Discord' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(useConnectionStore.getState()).toMatchObject({ connectionState: 'entering_webhook', selectedPlatform: 'discord' });
    expect(screen.getByRole('list', { name: 'How to create the Discord webhook' })).toHaveTextContent('Copy Webhook URL');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.getByRole('radio', { name: /^Discord/ })).toHaveFocus());
  });
});

describe('step 2: the webhook', () => {
  test('Connect is enabled only for a URL of the chosen platform; a wrong one is explained', async () => {
    pick(IOS_APP);
    const { user } = render(<ConnectFlow />);
    await toWebhookStep(user);
    const field = await screen.findByLabelText('Slack webhook URL');
    const connect = screen.getByRole('button', { name: 'Connect Slack' });
    expect(connect).toBeDisabled();
    await user.click(field);
    await user.paste(DISCORD_URL);
    await user.tab();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/That isn't a Slack incoming-webhook URL/)).toBeInTheDocument();
    expect(connect).toBeDisabled();
    await user.clear(field);
    await user.paste(SLACK_URL);
    expect(connect).toBeEnabled();
    expect(field).not.toHaveAttribute('aria-invalid');
  });

  test('Google Chat and Telegram have their own guides, and their URLs are checked as they are pasted', async () => {
    pick(IOS_APP);
    const { user } = render(<ConnectFlow />);
    await toWebhookStep(user, 'Google Chat');
    expect(screen.getByRole('list', { name: 'How to create the Google Chat webhook' })).toHaveTextContent('Apps & integrations');
    const chatField = await screen.findByLabelText('Google Chat webhook URL');
    await user.click(chatField);
    await user.paste('https://chat.googleapis.com/v1/spaces/AAAAb1c2d3e/messages?key=AIzaSyDdI0hCZtE6vySjMm');
    await user.tab();
    expect(screen.getByText(/missing its key=… or token=… part/)).toBeInTheDocument();
    await user.clear(chatField);
    await user.paste('https://chat.googleapis.com/v1/spaces/AAAAb1c2d3e/messages?key=AIzaSyDdI0hCZtE6vySjMm&token=Xy12_ab-CD');
    expect(screen.getByRole('button', { name: 'Connect Google Chat' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    await toWebhookStep(user, 'Telegram');
    expect(screen.getByRole('list', { name: 'How to create the Telegram webhook' })).toHaveTextContent('@BotFather');
    const botField = await screen.findByLabelText('Telegram bot URL');
    await user.click(botField);
    await user.paste('https://api.telegram.org/bot123456789:AAEhBP0av28_xhJzAbCdEfGhIjKlMnOpQrS/sendMessage');
    await user.tab();
    expect(screen.getByText(/Add the chat to the Telegram URL/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect Telegram' })).toBeDisabled();
    await user.clear(botField);
    await user.paste('https://api.telegram.org/bot123456789:AAEhBP0av28_xhJzAbCdEfGhIjKlMnOpQrS/sendMessage?chat_id=-1001234567890');
    expect(screen.getByRole('button', { name: 'Connect Telegram' })).toBeEnabled();
  });

  test('each platform keeps its own webhook URL when the visitor goes back and switches', async () => {
    pick(IOS_APP);
    const { user } = render(<ConnectFlow />);
    await toSlackUrlPasted(user);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await toWebhookStep(user, 'Discord');
    const discordField = await screen.findByLabelText('Discord webhook URL');
    expect(discordField).toHaveValue('');
    await user.click(discordField);
    await user.paste(DISCORD_URL);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await toWebhookStep(user, 'Slack');
    expect(await screen.findByLabelText('Slack webhook URL')).toHaveValue(SLACK_URL);
    expect(useConnectionStore.getState().webhooks).toEqual({ slack: SLACK_URL, discord: DISCORD_URL });
  });

  test('connecting sends the v2 payload, then shows the status and the account invitation', async () => {
    pick(IOS_APP);
    const { user } = render(<ConnectFlow />);
    await toSlackUrlPasted(user);
    await user.type(screen.getByLabelText('Your e-mail (optional)'), 'Ana@Example.com');
    await user.selectOptions(screen.getByLabelText('Reviews from'), 'gb');
    await user.click(screen.getByRole('button', { name: 'Connect Slack' }));

    expect(await screen.findByRole('heading', { name: 'Connected to your Slack channel' }, { timeout: 5000 })).toBeInTheDocument();
    const [req] = connectCalls();
    const body = JSON.parse(req.body) as { platform: string; payload: string };
    expect(body.platform).toBe('slack');
    expect(decodeConnectionPayload(body.payload)).toEqual({
      version: 'v2',
      user_email: 'ana@example.com',
      source: 'home',
      source_type: 'webhook',
      webhook_url: SLACK_URL,
      app_id: IOS_APP.id,
      app_store: 'apple_app_store',
      country: 'gb',
    });
    expect(screen.getByText('On its way…')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create free account' })).toHaveAttribute('href', '/login?redirect_to=%2Fdashboard');
    expect(useConnectionStore.getState()).toMatchObject({ connectionState: 'connected', destinationId: 'dst_AAAAAAAAAAAAAAAAAAAAAAAA' });
    // One invitation, on the status card: the search hero's banner is hidden once connected.
    expect(useConnectionStore.getState().showSignupBanner).toBe(false);

    // The card keeps reading the status: the welcome arrives.
    destination = { ...destination, welcome: 'delivered', queued: 0, delivered: 6, last_delivery_at: new Date().toISOString(), label: '#reviews' };
    expect(await screen.findByText('Delivered', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Connected to #reviews' })).toBeInTheDocument();
    expect(screen.getByText('just now')).toBeInTheDocument();
  });

  test('the status in the connect answer is shown at once, before the first status read returns', async () => {
    const answered = { ...destination, label: '#launch', welcome: 'waiting_for_first_poll' };
    connectAnswer = (_req, res) => json(res, 200, { data: { destination_id: 'dst_AAAAAAAAAAAAAAAAAAAAAAAA', platform: 'slack', app: { app_id: IOS_APP.id, title: IOS_APP.title }, status: answered } });
    let releaseStatus: () => void = () => undefined;
    statusGate = new Promise<void>((r) => (releaseStatus = r));
    destination = { ...destination, label: '#launch', welcome: 'delivered' };
    pick(IOS_APP);
    const { user } = render(<ConnectFlow />);
    await toSlackUrlPasted(user);
    await user.click(screen.getByRole('button', { name: 'Connect Slack' }));
    const heading = await screen.findByRole('heading', { name: 'Connected to #launch' }, { timeout: 5000 });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText('Reading the latest reviews from the store…')).toBeInTheDocument();
    releaseStatus();
    expect(await screen.findByText('Delivered', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  test('App Store apps start on "All countries", which sends country all; Google Play apps get no country choice', async () => {
    pick(IOS_APP);
    const { user, unmount } = render(<ConnectFlow />);
    await toSlackUrlPasted(user);
    expect((screen.getByLabelText('Reviews from') as HTMLSelectElement).value).toBe('all');
    await user.click(screen.getByRole('button', { name: 'Connect Slack' }));
    await screen.findByRole('heading', { name: /Connected/ }, { timeout: 5000 });
    expect(decodeConnectionPayload((JSON.parse(connectCalls()[0].body) as { payload: string }).payload).country).toBe('all');
    unmount();

    resetStores();
    pick(PLAY_APP);
    const second = render(<ConnectFlow />);
    await toWebhookStep(second.user);
    expect(screen.queryByLabelText('Reviews from')).toBeNull();
    expect(screen.getByText('Google Play reviews are read in English, from every country.')).toBeInTheDocument();
  });

  test('e-mail: the address is the destination; the payload carries it and no webhook', async () => {
    pick(IOS_APP);
    const { user } = render(<ConnectFlow />);
    await toWebhookStep(user, 'E-mail');
    const field = await screen.findByLabelText('E-mail address for the reviews');
    const send = screen.getByRole('button', { name: 'Send reviews to this address' });
    await user.type(field, 'team@');
    expect(send).toBeDisabled();
    await user.type(field, 'example.com');
    await user.click(send);
    await waitFor(() => expect(connectCalls()).toHaveLength(1));
    const body = JSON.parse(connectCalls()[0].body) as { platform: string; payload: string };
    expect(body.platform).toBe('email');
    expect(decodeConnectionPayload(body.payload)).toMatchObject({ user_email: 'team@example.com', webhook_url: '' });
  });

  test('e-mail: the card says to confirm from the inbox while the address is pending, then turns connected', async () => {
    destination = {
      ...destination,
      platform: 'email',
      status: 'pending_confirmation',
      status_reason: 'Waiting for te…@example.com to confirm: click the link in the confirmation e-mail we sent there.',
      target: 'te…@example.com',
      welcome: 'waiting_for_first_poll',
      queued: 0,
      confirmation_sent_at: new Date().toISOString(),
    };
    connectAnswer = (_req, res) =>
      json(res, 200, {
        data: {
          destination_id: 'dst_AAAAAAAAAAAAAAAAAAAAAAAA',
          platform: 'email',
          status: destination,
          confirmation: { sent: false, sent_at: destination.confirmation_sent_at, resend_after: null, message: 'We already sent a confirmation link to te…@example.com in the last 15 minutes.' },
        },
      });
    pick(IOS_APP);
    const { user } = render(<ConnectFlow />);
    await toWebhookStep(user, 'E-mail');
    await user.type(await screen.findByLabelText('E-mail address for the reviews'), 'team@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reviews to this address' }));

    expect(await screen.findByRole('heading', { name: 'Check team@example.com to confirm' })).toBeInTheDocument();
    expect(screen.getByText('Waiting for confirmation')).toBeInTheDocument();
    expect(screen.getByText(/already sent a confirmation link/)).toBeInTheDocument();
    expect(screen.queryByText('Messages delivered')).toBeNull();

    // The mailbox clicked the link: the next status read shows the connection.
    destination = { ...destination, status: 'active', status_reason: null, welcome: 'queued', confirmation_sent_at: null };
    expect(await screen.findByRole('heading', { name: 'Sending reviews to te…@example.com' }, { timeout: 8000 })).toBeInTheDocument();
    // Connected, and "Active" once a message got through (shared/deliveryErrors.ts first_message).
    expect(screen.getByText('Connected, waiting for the first message')).toBeInTheDocument();
  }, 15_000);

  test('the server’s refusal is shown in its words and the step stays editable', async () => {
    connectAnswer = (_req, res) => json(res, 400, { error: { code: 'invalid_webhook_url', message: 'payload.webhook_url: That isn’t a Slack incoming-webhook URL.' } });
    pick(IOS_APP);
    const { user } = render(<ConnectFlow />);
    await toSlackUrlPasted(user);
    await user.click(screen.getByRole('button', { name: 'Connect Slack' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('payload.webhook_url: That isn’t a Slack incoming-webhook URL.'));
    expect(useConnectionStore.getState().connectionState).toBe('error');
    expect(screen.getByRole('button', { name: 'Connect Slack' })).toBeEnabled();
  });

  test('loopback test receivers are accepted only when the server allows them', async () => {
    const loopback = 'http://127.0.0.1:4010/services/T0123/B0456/abcdef';
    pick(IOS_APP);
    const { user, unmount } = render(<ConnectFlow />);
    await toWebhookStep(user);
    await user.click(await screen.findByLabelText('Slack webhook URL'));
    await user.paste(loopback);
    expect(screen.getByRole('button', { name: 'Connect Slack' })).toBeDisabled();
    unmount();

    config = { ...config, allow_private_webhooks: true };
    resetStores();
    pick(IOS_APP);
    const again = render(<ConnectFlow />);
    await toWebhookStep(again.user);
    await again.user.click(await screen.findByLabelText('Slack webhook URL'));
    await again.user.paste(loopback);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Connect Slack' })).toBeEnabled());
  });
});

describe('Add to Slack / Add to Discord', () => {
  test('hidden when the server has no client id', async () => {
    pick(IOS_APP);
    const { user } = render(<ConnectFlow />);
    await toWebhookStep(user);
    await screen.findByLabelText('Slack webhook URL');
    expect(screen.queryByRole('button', { name: 'Add to Slack' })).toBeNull();
  });

  test('shown for Slack and Discord when configured, never for the others', async () => {
    config = { ...config, slack_oauth: true, discord_oauth: true };
    pick(IOS_APP);
    const { user } = render(<ConnectFlow />);
    await toWebhookStep(user);
    expect(await screen.findByRole('button', { name: 'Add to Slack' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await toWebhookStep(user, 'Discord');
    expect(await screen.findByRole('button', { name: 'Add to Discord' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await toWebhookStep(user, 'Webex');
    await screen.findByLabelText('Webex webhook URL');
    expect(screen.queryByRole('button', { name: /^Add to/ })).toBeNull();
  });
});

describe('the status card', () => {
  test('a destination Slack disabled is explained in plain words', async () => {
    destination = {
      ...destination,
      status: 'disabled',
      status_reason: 'Slack refused the webhook: it no longer exists — its channel was archived or removed (HTTP 410, channel_is_archived). Connect it again to keep receiving reviews.',
      welcome: 'delivered',
    };
    act(() => {
      useConnectionStore.getState().setSelectedAppDetails(IOS_APP);
      useConnectionStore.setState({ connectionState: 'connected', destinationId: 'dst_AAAAAAAAAAAAAAAAAAAAAAAA' });
    });
    render(<ConnectFlow />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Slack says this channel was archived. Reconnect to a new channel.');
    expect(screen.getByText('Stopped')).toBeInTheDocument();
  });

  test('a Telegram bot that was blocked is explained with the step that fixes it', async () => {
    destination = {
      ...destination,
      platform: 'telegram',
      status: 'disabled',
      status_reason: 'Telegram refused the message: the person this bot writes to has blocked it (HTTP 403, Forbidden: bot was blocked by the user). Unblock the bot in Telegram (open its chat and press Restart), then connect it again to keep receiving reviews.',
      welcome: 'delivered',
    };
    act(() => {
      useConnectionStore.getState().setSelectedAppDetails(IOS_APP);
      useConnectionStore.setState({ connectionState: 'connected', destinationId: 'dst_AAAAAAAAAAAAAAAAAAAAAAAA', selectedPlatform: 'telegram' });
    });
    render(<ConnectFlow />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Telegram says the person this bot writes to has blocked it.');
    expect(screen.getByRole('heading', { name: 'Connected to your Telegram chat' })).toBeInTheDocument();
  });
});
