/**
 * The status card after connecting (GET v1/public/destination/{id}, read every few seconds): a destination whose first
 * message could not be delivered is not "Active" — the card says so, why in words (never the network's code) and what
 * to check — and turns "Active" once a message got through. Parked messages are shown with their reason.
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { route, startApiFake, type ApiFake } from './support/apiFake';
import { json } from '@/tests/fakes/http';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import ConnectionStatus from '@/components/connect/ConnectionStatus';
import { firstDeliveryProblem } from '@/shared/deliveryErrors';

const ID = 'dst_BBBBBBBBBBBBBBBBBBBBBBBB';
const RECORDED = 'The webhook could not be reached (ECONNREFUSED).';
let fake: ApiFake;
let destination: Record<string, unknown>;

beforeEach(async () => {
  resetStores();
  destination = {
    id: ID,
    platform: 'slack',
    status: 'active',
    status_reason: null,
    label: '#reviews',
    target: 'https://hooks.slack.com/…3456',
    app: { app_id: '1488223190', app_store: 'apple_app_store', title: 'Streakly' },
    warning: null,
    welcome: 'queued',
    queued: 6,
    delivered: 0,
    last_delivery_at: null,
    last_error: RECORDED,
    last_error_at: new Date().toISOString(),
    first_message: 'failed',
    first_delivery_problem: firstDeliveryProblem(RECORDED, 'slack'),
    parked: 0,
    parked_reason: null,
    source_problem: null,
    confirmation_sent_at: null,
  };
  fake = await startApiFake([route('GET', `/api/v1/public/destination/${ID}`, (_req, res) => json(res, 200, { data: destination }))]);
});

afterEach(async () => {
  fake.restore();
  await fake.close();
});

test('the first message could not be delivered: not "Active", the reason in words and what to check', async () => {
  render(<ConnectionStatus destinationId={ID} />);
  expect(await screen.findByText('Not delivering: the first message could not be delivered')).toBeInTheDocument();
  expect(screen.queryByText('Active')).toBeNull();
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('Connected, but the first message could not be delivered: the server refused the connection');
  expect(alert).toHaveTextContent('check that the webhook URL is right');
  expect(document.body.textContent).not.toContain('ECONNREFUSED');

  // A message got through: now it is active, and the old error is history.
  destination = { ...destination, delivered: 1, last_delivery_at: new Date().toISOString(), last_error: null, last_error_at: null, first_message: 'delivered', first_delivery_problem: null };
  expect(await screen.findByText('Active', {}, { timeout: 8000 })).toBeInTheDocument();
  expect(screen.getByRole('alert')).toBeEmptyDOMElement();
}, 15_000);

test('before any attempt: connected, waiting for the first message (not yet "Active")', async () => {
  destination = { ...destination, last_error: null, last_error_at: null, first_message: 'not_yet', first_delivery_problem: null };
  render(<ConnectionStatus destinationId={ID} />);
  expect(await screen.findByText('Connected, waiting for the first message')).toBeInTheDocument();
  expect(screen.queryByText('Active')).toBeNull();
});

test('parked messages are shown with their reason', async () => {
  destination = {
    ...destination,
    delivered: 4,
    last_delivery_at: new Date().toISOString(),
    last_error: null,
    first_message: 'delivered',
    first_delivery_problem: null,
    parked: 1,
    parked_reason: 'Not sent: the worker stopped while sending this message 3 times in a row, so ARB set it aside instead of trying again. The messages after it are sent as usual.',
  };
  render(<ConnectionStatus destinationId={ID} />);
  expect(await screen.findByText('1 message')).toBeInTheDocument();
  await waitFor(() => expect(screen.getByText(/the worker stopped while sending this message 3 times in a row/)).toBeInTheDocument());
  expect(screen.getByText('Active')).toBeInTheDocument();
});
