/**
 * /dashboard/integrations against a loopback API: an admin connects Zendesk through a labelled form (Zendesk's refusal
 * shown in plain words), then sees the webhook URL, the trigger and its JSON body, and saves the signing secret; a
 * member sees only the status. TicketLink: "Create ticket" says each answer (201, 200, 202, 409, 422) in words.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { json } from '@/tests/fakes/http';
import { fail, notPreflight, ok, route } from './support/apiFake';
import { org } from './support/answers';
import { signedInWithApiFake } from './support/signedIn';
import { render } from '@/tests/helpers/render';
import ZendeskIntegration from '@/components/dashboard/integrations/ZendeskIntegration';
import TicketLink from '@/components/dashboard/integrations/TicketLink';
import { ZENDESK_TRIGGER_BODY, ZENDESK_TRIGGER_NAME } from '@/shared/zendesk';

const api = signedInWithApiFake();

const trigger = { name: ZENDESK_TRIGGER_NAME, body: ZENDESK_TRIGGER_BODY };
const off = { connected: false, subdomain: null, email: null, user_name: null, connected_at: null, webhook_url: null, signing_secret_set: false, signing_secret: null, last_event_at: null, trigger };
const on = {
  ...off,
  connected: true,
  subdomain: 'acme',
  email: 'agent@acme.com',
  user_name: 'Ada Agent',
  connected_at: '2030-01-01T10:00:00.000Z',
  webhook_url: 'https://arb.example/api/v1/integrations/zendesk/webhook?key=zwh_abcdefghijklmnopqrstuvwxyz012345',
};

describe('/dashboard/integrations', () => {
  test('an admin connects: a refusal in plain words, then the setup steps and the signing secret saved', async () => {
    let tries = 0;
    const fake = await api.start([
      route('GET', '/api/v1/org', ok(org('admin'))),
      route('GET', '/api/v1/org/integrations/zendesk', ok(off)),
      (req, res) => {
        if (req.method !== 'PUT' || req.path !== '/api/v1/org/integrations/zendesk') return false;
        tries += 1;
        if (tries === 1) json(res, 422, { error: { code: 'zendesk_refused', message: 'Zendesk refused this e-mail and API token: check both.' } });
        else json(res, 200, { data: on });
        return true;
      },
      route('PATCH', '/api/v1/org/integrations/zendesk', ok({ ...on, signing_secret_set: true, signing_secret: 'dGhlLXNlY3JldA==' })),
    ]);
    render(<ZendeskIntegration />, { url: '/dashboard/integrations' });
    expect(await screen.findByText('Not connected.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Zendesk subdomain (acme for acme.zendesk.com)'), { target: { value: 'acme' } });
    fireEvent.change(screen.getByLabelText('Agent e-mail address'), { target: { value: 'agent@acme.com' } });
    fireEvent.change(screen.getByLabelText(/^API token/), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect Zendesk' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Zendesk refused this e-mail and API token: check both.');
    fireEvent.change(screen.getByLabelText(/^API token/), { target: { value: 'right-token' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect Zendesk' }));
    expect(await screen.findByText(/Connected to acme\.zendesk\.com as Ada Agent \(agent@acme\.com\)/)).toBeInTheDocument();
    const put = fake.requests.filter(notPreflight).filter((r) => r.method === 'PUT');
    expect(JSON.parse(put[1].body)).toEqual({ subdomain: 'acme', email: 'agent@acme.com', api_token: 'right-token' });
    expect(screen.getByLabelText('Webhook URL')).toHaveTextContent(on.webhook_url);
    expect(screen.getByLabelText('Trigger JSON body').textContent).toBe(ZENDESK_TRIGGER_BODY);
    expect(screen.getByText(new RegExp(`named “${ZENDESK_TRIGGER_NAME}”`))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disconnect Zendesk' })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/^Webhook signing secret/), { target: { value: 'dGhlLXNlY3JldA==' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save signing secret' }));
    await waitFor(() => expect(fake.requests.some((r) => r.method === 'PATCH')).toBe(true));
    expect(JSON.parse(fake.requests.find((r) => r.method === 'PATCH')!.body)).toEqual({ signing_secret: 'dGhlLXNlY3JldA==' });
    expect(await screen.findByLabelText(/Webhook signing secret \(saved/)).toBeInTheDocument();
  });

  test('a member sees the status only', async () => {
    await api.start([route('GET', '/api/v1/org', ok(org('member'))), route('GET', '/api/v1/org/integrations/zendesk', ok({ ...on, webhook_url: null }))]);
    render(<ZendeskIntegration />, { url: '/dashboard/integrations' });
    expect(await screen.findByText(/Connected to acme\.zendesk\.com/)).toBeInTheDocument();
    expect(screen.getByText('An admin of your organisation connects and sets up Zendesk.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Disconnect Zendesk' })).toBeNull();
    expect(screen.queryByLabelText('Webhook URL')).toBeNull();
    expect(screen.queryByLabelText(/^API token/)).toBeNull();
  });
});

const ticket = { review_id: '42', state: 'created' as const, ticket_id: 7, url: 'https://acme.zendesk.com/agent/tickets/7', status: 'new', failure: null, requested_by: 'ana@example.com' };

describe('TicketLink', () => {
  test.each([
    [201, 'Ticket created in Zendesk.'],
    [200, 'This review already has a ticket.'],
  ])('%i: the link, and the answer in words', async (status, words) => {
    await api.start([(req, res) => (req.method === 'POST' && req.path === '/api/v1/org/reviews/42/ticket' ? (json(res, status, { data: ticket }), true) : false)]);
    render(<TicketLink reviewId="42" />);
    fireEvent.click(screen.getByRole('button', { name: 'Create ticket' }));
    expect(await screen.findByRole('link', { name: 'Zendesk ticket #7' })).toHaveAttribute('href', ticket.url);
    expect(screen.getByRole('status')).toHaveTextContent(words);
  });

  test('202: queued, said so', async () => {
    await api.start([(req, res) => (req.method === 'POST' && req.path === '/api/v1/org/reviews/42/ticket' ? (json(res, 202, { data: { ...ticket, state: 'queued', ticket_id: null, url: null } }), true) : false)]);
    render(<TicketLink reviewId="42" />);
    fireEvent.click(screen.getByRole('button', { name: 'Create ticket' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Zendesk is busy: the ticket will be created shortly.'));
  });

  test.each([
    [409, 'not_connected', 'Zendesk is not connected.', 'Zendesk is not connected: an admin connects it on the Integrations page.'],
    [422, 'zendesk_refused', 'The requester needs an e-mail address.', 'Zendesk refused the ticket: The requester needs an e-mail address.'],
  ])('%i: said in words', async (status, code, message, words) => {
    await api.start([route('POST', '/api/v1/org/reviews/42/ticket', fail(status, code, message))]);
    render(<TicketLink reviewId="42" />);
    fireEvent.click(screen.getByRole('button', { name: 'Create ticket' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(words));
  });

  test('an existing ticket is a link, no button', () => {
    render(<TicketLink reviewId="42" ticketUrl={ticket.url} ticketId={7} />);
    expect(screen.getByRole('link', { name: 'Zendesk ticket #7' })).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
