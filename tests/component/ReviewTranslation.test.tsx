// "Translate" on a review in the inbox, against a loopback API: the translation shown under the review with who made
// it, hidden again; no button for a review already in the reader's language; and the server's words when no
// translator is configured (shown in place, the button off).
import { screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import Translation from '@/components/dashboard/reviews/Translation';
import { AI_SETUP_GUIDE, TRANSLATION_NOT_CONFIGURED } from '@/shared/ai';
import { render } from '@/tests/helpers/render';
import { fail, notPreflight, ok, route } from './support/apiFake';
import { org as anOrg } from './support/answers';
import { signedInWithApiFake } from './support/signedIn';

const PATH = '/api/v1/org/reviews/42/translate';
const api = signedInWithApiFake();

describe('Translate a review', () => {
  test('shows the translation and who made it, and hides it again', async () => {
    const fake = await api.start([route('POST', PATH, ok({ review_id: '42', language: 'en', title: 'Crash', body: 'It crashes on start.', provider: 'libretranslate' }))]);
    const { user } = render(<Translation review={{ id: '42', language: 'de' }} language="en" />);
    await user.click(screen.getByRole('button', { name: 'Translate to English' }));
    const shown = await screen.findByRole('region', { name: 'Translation into English' });
    expect(shown.textContent).toContain('It crashes on start.');
    expect(shown.textContent).toContain('Translated by LibreTranslate');
    expect(shown.getAttribute('lang')).toBe('en');
    expect(fake.requests.filter(notPreflight).filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body))).toEqual([{ language: 'en' }]);
    await user.click(screen.getByRole('button', { name: 'Hide translation' }));
    expect(screen.getByRole('button', { name: 'Translate to English' })).toBeTruthy();
  });

  test('no button for a review in the reader’s language', () => {
    render(<Translation review={{ id: '42', language: 'en-GB' }} language="en" />);
    expect(screen.queryByRole('button')).toBeNull();
  });

  test('without a translator it says translation is not configured and how, in place', async () => {
    await api.start([route('POST', PATH, fail(503, 'translation_not_configured', TRANSLATION_NOT_CONFIGURED))]);
    const { user } = render(<Translation review={{ id: '42', language: 'fr' }} language="en" />);
    await user.click(screen.getByRole('button', { name: 'Translate to English' }));
    expect((await screen.findByRole('note')).textContent).toBe(TRANSLATION_NOT_CONFIGURED);
    expect((screen.getByRole('button', { name: 'Translate to English' }) as HTMLButtonElement).disabled).toBe(true);
  });

  test('a server without a translator: the button is off before any click, and an admin gets the setup guide', async () => {
    const org = anOrg('owner', { name: 'Acme' });
    const fake = await api.start([route('GET', '/api/v1/org', ok(org))]);
    render(<Translation review={{ id: '42', language: 'fr' }} language="en" />);
    const link = await screen.findByRole('link', { name: 'How to turn them on (setup guide)' });
    expect(link.getAttribute('href')).toBe(AI_SETUP_GUIDE);
    expect(screen.getByRole('note').textContent).toBe(`${TRANSLATION_NOT_CONFIGURED} How to turn them on (setup guide)`);
    expect((screen.getByRole('button', { name: 'Translate to English' }) as HTMLButtonElement).disabled).toBe(true);
    expect(fake.requests.filter(notPreflight).filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});
