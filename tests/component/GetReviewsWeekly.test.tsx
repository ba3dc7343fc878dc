// The /get-reviews form's weekly summary box against a loopback API: ticked, the request asks for it
// (weekly_summary: true) and the answer says the e-mail's button starts it; unticked, nothing is asked.
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import GetReviewsForm from '@/components/connect/GetReviewsForm';
import { useConnectionStore } from '@/stores/connection';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import { notPreflight, ok, route, startApiFake, type ApiFake } from './support/apiFake';

let fake: ApiFake;
beforeEach(async () => {
  resetStores();
  useConnectionStore.setState({ selectedAppDetails: { id: 'com.lantern.notes', store: 'google_play_store', title: 'Lantern Notes' }, userEmail: 'ana@example.com' });
  fake = await startApiFake([route('POST', '/api/v1/public/reviews', ok({ queued: true, confirmation_required: false }))]);
});
afterEach(async () => {
  fake.restore();
  await fake.close();
});

const sent = () => fake.requests.filter(notPreflight).filter((r) => r.path === '/api/v1/public/reviews').map((r) => JSON.parse(r.body));

describe('the weekly summary box', () => {
  test('ticked: asks for it, and says the e-mail’s button starts it', async () => {
    const { user } = render(<GetReviewsForm />);
    await user.click(screen.getByLabelText(/And a weekly summary every Monday/));
    await user.click(screen.getByRole('button', { name: 'Send me the reviews' }));
    expect(await screen.findByText(/Click the button in that e-mail to start the weekly summary\./)).toBeInTheDocument();
    expect(sent()).toEqual([{ email: 'ana@example.com', app_id: 'com.lantern.notes', app_store: 'google_play_store', weekly_summary: true }]);
  });

  test('unticked: nothing weekly is asked', async () => {
    const { user } = render(<GetReviewsForm />);
    await user.click(screen.getByRole('button', { name: 'Send me the reviews' }));
    expect(await screen.findByText(/Check your inbox/)).toBeInTheDocument();
    expect(sent()).toEqual([{ email: 'ana@example.com', app_id: 'com.lantern.notes', app_store: 'google_play_store' }]);
  });
});
