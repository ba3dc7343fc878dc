// "Translate" on a review in the inbox, against a loopback API: the translation shown under the review with who made
// it, hidden again; no button for a review already in the reader's language; and the server's words when no
// translator is configured (shown in place, the button off).
import { act, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { encode as encodeBase64Url } from 'jose/base64url';
import Translation from '@/components/dashboard/reviews/Translation';
import { TRANSLATION_NOT_CONFIGURED } from '@/shared/ai';
import { useAuthStore } from '@/stores/auth';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import { fail, notPreflight, ok, route, startApiFake, type ApiFake } from './support/apiFake';

const jwt = ['eyJhbGciOiJIUzI1NiJ9', encodeBase64Url(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600, email: 'ana@example.com', org: 'org_7', scope: 'full' })), 'sig'].join('.');
const PATH = '/api/v1/org/reviews/42/translate';

let fake: ApiFake | undefined;
beforeEach(() => {
  resetStores();
  useAuthStore.getState().setAuthData({ authToken: jwt, email: 'ana@example.com' });
});
afterEach(async () => {
  act(() => toast.remove());
  fake?.restore();
  await fake?.close();
  fake = undefined;
});

describe('Translate a review', () => {
  test('shows the translation and who made it, and hides it again', async () => {
    fake = await startApiFake([route('POST', PATH, ok({ review_id: '42', language: 'en', title: 'Crash', body: 'It crashes on start.', provider: 'libretranslate' }))]);
    const { user } = render(<Translation review={{ id: '42', language: 'de' }} language="en" />);
    await user.click(screen.getByRole('button', { name: 'Translate to English' }));
    const shown = await screen.findByRole('region', { name: 'Translation into English' });
    expect(shown.textContent).toContain('It crashes on start.');
    expect(shown.textContent).toContain('Translated by LibreTranslate');
    expect(shown.getAttribute('lang')).toBe('en');
    expect(fake.requests.filter(notPreflight).map((r) => JSON.parse(r.body))).toEqual([{ language: 'en' }]);
    await user.click(screen.getByRole('button', { name: 'Hide translation' }));
    expect(screen.getByRole('button', { name: 'Translate to English' })).toBeTruthy();
  });

  test('no button for a review in the reader’s language', () => {
    render(<Translation review={{ id: '42', language: 'en-GB' }} language="en" />);
    expect(screen.queryByRole('button')).toBeNull();
  });

  test('without a translator it says translation is not configured and how, in place', async () => {
    fake = await startApiFake([route('POST', PATH, fail(503, 'translation_not_configured', TRANSLATION_NOT_CONFIGURED))]);
    const { user } = render(<Translation review={{ id: '42', language: 'fr' }} language="en" />);
    await user.click(screen.getByRole('button', { name: 'Translate to English' }));
    expect((await screen.findByRole('note')).textContent).toBe(TRANSLATION_NOT_CONFIGURED);
    expect((screen.getByRole('button', { name: 'Translate to English' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
