/**
 * Replies → Awaiting approval against a loopback API: a rule's draft with its review and rule, a labelled text box
 * counting the store's limit (Approve disabled past it), Approve sends the edited text, Reject, and the paused apps.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { notPreflight, ok, route } from './support/apiFake';
import { signedInWithApiFake } from './support/signedIn';
import { render } from '@/tests/helpers/render';
import RepliesPage from '@/components/dashboard/replies/RepliesPage';

const api = signedInWithApiFake();

const draft = {
  id: 'rpl_aaaaaaaaaaaaaaaaaaaaaaaa',
  review_id: '42',
  state: 'awaiting_approval' as const,
  text: 'Sorry Rin, write to refunds@example.com.',
  failure: null,
  by: 'Rule "Refunds"',
  replied_at: '2030-01-01T10:00:00.000Z',
  attempts: 0,
  next_attempt_at: null,
  created_at: '2030-01-01T10:00:00.000Z',
  rule: { id: 'rul_refunds', name: 'Refunds', mode: 'approval' as const },
  drafted_by: 'template' as const,
  template_id: 'tpl_x',
  decided_by: null,
  decided_at: null,
  max_characters: 350,
  review: {
    app_key: 'google_play_store__com.example',
    app_title: 'Pocket Garden',
    app_store: 'google_play_store',
    author_display_name: 'Rin',
    content_rating: 1,
    content_title: 'Charged twice',
    content_body: 'I want a refund',
    language: 'en',
    content_updated_at: '2030-01-01T09:00:00.000Z',
    reply_text: null,
  },
};

describe('/dashboard/replies', () => {
  test('a draft with its review and rule; the limit counted; Approve sends the edited text; the pauses listed', async () => {
    const fake = await api.start([
      route('GET', '/api/v1/org/replies', ok([draft])),
      route('GET', '/api/v1/org/reply-pauses', ok([{ app_key: 'apple_app_store__1', app_title: 'Focus Lantern', kind: 'credentials' as const, reason: 'The key was revoked.', since: '2030-01-01T08:00:00.000Z', until: null }])),
      route('POST', '/api/v1/org/replies/{id}/approve', ok({ ...draft, state: 'pending_publish' as const })),
    ]);
    render(<RepliesPage />, { url: '/dashboard/replies' });
    const list = await screen.findByRole('list', { name: 'Drafts awaiting approval' });
    expect(within(list).getByText('I want a refund')).toBeInTheDocument();
    expect(within(list).getByText(/drafted by rule “Refunds”/)).toBeInTheDocument();
    expect(await screen.findByText(/The key was revoked\./)).toBeInTheDocument();
    const box = within(list).getByLabelText('Reply (public, under your developer name)');
    fireEvent.change(box, { target: { value: 'x'.repeat(351) } });
    expect(within(list).getByText(/351 of 350 characters — shorten it by 1/)).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Approve edited reply' })).toBeDisabled();
    fireEvent.change(box, { target: { value: 'Rin, your refund is on its way.' } });
    fireEvent.click(within(list).getByRole('button', { name: 'Approve edited reply' }));
    await waitFor(() => expect(fake.requests.filter(notPreflight).some((r) => r.method === 'POST' && r.path.endsWith('/approve'))).toBe(true));
    const sent = fake.requests.filter(notPreflight).find((r) => r.path.endsWith('/approve'))!;
    expect(JSON.parse(sent.body)).toEqual({ text: 'Rin, your refund is on its way.' });
    expect(within(list).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
  });
});
