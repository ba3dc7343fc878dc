// The inbox's reply composer against a loopback API: the store's limit counted as you type and refused before sending,
// a template filled with the reviewer's name and the app's title, what is sent, the server's refusal as a toast, and
// what it says when the app has no store credentials; "Draft a reply" (the app's tone, the draft in the text box, never
// sent by itself) and what the button says when the server has no language model.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { describe, expect, test, vi } from 'vitest';
import ReplyComposer, { type ComposerProps } from '@/components/dashboard/reviews/ReplyComposer';
import { render } from '@/tests/helpers/render';
import { AI_ENABLE_FOR_MEMBERS, AI_SETUP_GUIDE, DRAFTS_NOT_CONFIGURED } from '@/shared/ai';
import type { ApiData } from '@/lib/api/openapi';
import { fail, notPreflight, ok, route } from './support/apiFake';
import { org as anOrg } from './support/answers';
import { signedInWithApiFake } from './support/signedIn';


const review = (over: Partial<ComposerProps['review']> = {}): ComposerProps['review'] => ({
  id: '42',
  app_key: 'google_play_store__com.lantern.notes',
  app_store: 'google_play_store',
  title: 'Lantern Notes',
  author_display_name: 'Rin',
  reply_text: null,
  reply: null,
  ...over,
});

const TEMPLATES = '/api/v1/org/reply-templates';
const templates = (list: ApiData<'/api/v1/org/reply-templates', 'get'>) => route('GET', TEMPLATES, ok(list));
const sentReply = { id: 'rpl_1', review_id: '42', state: 'pending_publish' as const, text: 'x', failure: null, by: 'ana@example.com', replied_at: new Date().toISOString(), attempts: 1, next_attempt_at: null };

const api = signedInWithApiFake('ana@example.com', 'org_7');

const posts = () => api.fake!.requests.filter(notPreflight).filter((r) => r.method === 'POST' && r.path === '/api/v1/org/reviews/42/reply');

describe('Reply composer', () => {
  test("counts against Google Play's 350 characters, refuses longer text before sending, then sends", async () => {
    await api.start([templates([]), route('POST', '/api/v1/org/reviews/42/reply', ok(sentReply))]);
    const onDone = vi.fn();
    const { user } = render(
      <>
        <Toaster />
        <ReplyComposer review={review()} hasCredentials onDone={onDone} />
      </>,
    );
    const box = await screen.findByLabelText('Your reply');
    expect(screen.getByText('0 / 350 characters')).toBeTruthy();
    fireEvent.change(box, { target: { value: '👍'.repeat(351) } });
    expect(screen.getByText('351 / 350 characters — too long for Google Play: shorten it by 1.')).toBeTruthy();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    const send = screen.getByRole('button', { name: 'Send reply' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(send.closest('form')!);
    expect(posts()).toHaveLength(0);

    fireEvent.change(box, { target: { value: '👍'.repeat(350) } });
    expect(screen.getByText('350 / 350 characters')).toBeTruthy();
    await user.click(send);
    await screen.findByText('Reply sent to Google Play');
    expect(posts().map((r) => JSON.parse(r.body))).toEqual([{ text: '👍'.repeat(350) }]);
    expect(onDone).toHaveBeenCalled();
  });

  test("App Store's limit is 5,970; a template fills {author} and {app}; the store's refusal is a toast", async () => {
    const reason = "This App Store Connect key's role can't reply to reviews: give key 2X9R4HXF34 the Admin, App Manager or Customer Support role.";
    await api.start([
      templates([{ id: 'tpl_1', app_key: 'apple_app_store__1', name: 'Thanks', body: 'Thanks {author}, glad {app} helps!', created_at: '', updated_at: '' }]),
      route('POST', '/api/v1/org/reviews/42/reply', fail(422, 'reply_failed', reason)),
    ]);
    const { user } = render(
      <>
        <Toaster />
        <ReplyComposer review={review({ app_key: 'apple_app_store__1', app_store: 'apple_app_store', author_display_name: 'Maya K' })} hasCredentials onDone={() => undefined} />
      </>,
    );
    expect(await screen.findByText('0 / 5,970 characters')).toBeTruthy();
    const picker = screen.getByLabelText('Template');
    await screen.findByRole('option', { name: 'Thanks' });
    await user.selectOptions(picker, 'tpl_1');
    expect((screen.getByLabelText('Your reply') as HTMLTextAreaElement).value).toBe('Thanks Maya K, glad Lantern Notes helps!');
    expect(screen.getByText('40 / 5,970 characters')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    await screen.findByText(reason);
    expect(posts().map((r) => JSON.parse(r.body))).toEqual([{ text: 'Thanks Maya K, glad Lantern Notes helps!' }]);
  });

  test('saves the text as a template for the app', async () => {
    await api.start([templates([]), route('POST', TEMPLATES, ok({ id: 'tpl_2', app_key: 'google_play_store__com.lantern.notes', name: 'Fixed', body: 'Fixed in 2.1, {author}!', created_at: '', updated_at: '' }))]);
    const { user } = render(
      <>
        <Toaster />
        <ReplyComposer review={review()} hasCredentials onDone={() => undefined} />
      </>,
    );
    await user.type(await screen.findByLabelText('Your reply'), 'Fixed in 2.1, {{author}!');
    await user.type(screen.getByLabelText('Template name'), 'Fixed');
    await user.click(screen.getByRole('button', { name: 'Save as template' }));
    await screen.findByText('Template "Fixed" saved');
    const saved = api.fake!.requests.filter(notPreflight).filter((r) => r.method === 'POST' && r.path === TEMPLATES);
    expect(saved.map((r) => JSON.parse(r.body))).toEqual([{ app_key: 'google_play_store__com.lantern.notes', name: 'Fixed', body: 'Fixed in 2.1, {author}!' }]);
  });

  test("Draft a reply: starts at the app's tone, fills the text box with the model's draft in the tone chosen, sends nothing", async () => {
    const DRAFT = '/api/v1/org/reviews/42/draft-reply';
    const text = 'Danke, Rin! Das Update 2.1 behebt den Absturz.';
    await api.start([
      templates([]),
      route('GET', DRAFT, ok({ tone: 'formal', language: 'de', max: 350, language_model: true, not_configured: null })),
      route('POST', DRAFT, ok({ text, tone: 'brief', language: 'de', characters: 46, max: 350, trimmed: false })),
    ]);
    const { user } = render(
      <>
        <Toaster />
        <ReplyComposer review={review()} hasCredentials onDone={() => undefined} />
      </>,
    );
    const tone = (await screen.findByLabelText('Tone')) as HTMLSelectElement;
    await waitFor(() => expect(tone.value).toBe('formal'));
    await user.selectOptions(tone, 'brief');
    await user.click(screen.getByRole('button', { name: 'Draft a reply' }));
    await screen.findByText('Draft written in German: read it, edit it, then send it');
    expect((screen.getByLabelText('Your reply') as HTMLTextAreaElement).value).toBe(text);
    expect(screen.getByText('46 / 350 characters')).toBeTruthy();
    const drafts = api.fake!.requests.filter(notPreflight).filter((r) => r.method === 'POST' && r.path === DRAFT);
    expect(drafts.map((r) => JSON.parse(r.body))).toEqual([{ tone: 'brief' }]);
    expect(posts()).toHaveLength(0); // the person sends it, not the draft
  });

  test('without a language model the Draft button is off and says why in plain words', async () => {
    const words = DRAFTS_NOT_CONFIGURED;
    await api.start([templates([]), route('GET', '/api/v1/org/reviews/42/draft-reply', ok({ tone: 'friendly', language: 'en', max: 350, language_model: false, not_configured: words }))]);
    render(<ReplyComposer review={review()} hasCredentials onDone={() => undefined} />);
    const note = await screen.findByRole('note');
    expect(note.textContent).toBe(words);
    const button = screen.getByRole('button', { name: 'Draft a reply' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('title')).toBe(words);
    expect(button.getAttribute('aria-describedby')).toBe(note.id);
    expect(api.fake!.requests.filter(notPreflight).filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  test.each(['admin', 'member'] as const)('without a language model an %s reads the way to turn it on, and no setting names', async (role) => {
    const org = anOrg(role, { id: 'org_7', name: 'Acme', members: 2 });
    await api.start([
      templates([]),
      route('GET', '/api/v1/org', ok(org)),
      route('GET', '/api/v1/org/reviews/42/draft-reply', ok({ tone: 'friendly', language: 'en', max: 350, language_model: false, not_configured: DRAFTS_NOT_CONFIGURED })),
    ]);
    render(<ReplyComposer review={review()} hasCredentials onDone={() => undefined} />);
    const note = await screen.findByRole('note');
    if (role === 'admin') {
      const link = await screen.findByRole('link', { name: 'How to turn them on (setup guide)' });
      expect(link.getAttribute('href')).toBe(AI_SETUP_GUIDE);
      expect(note.contains(link)).toBe(true);
    } else {
      await waitFor(() => expect(note.textContent).toBe(`${DRAFTS_NOT_CONFIGURED} ${AI_ENABLE_FOR_MEMBERS}`));
      expect(screen.queryByRole('link')).toBeNull();
    }
    expect(note.textContent).toMatch(/AI answers aren’t enabled on this server/);
    expect(note.textContent).not.toMatch(/\b[A-Z][A-Z0-9]+_[A-Z0-9_]+\b/);
    expect((screen.getByRole('button', { name: 'Draft a reply' }) as HTMLButtonElement).disabled).toBe(true);
  });

  test('without store credentials it says where to add them, and offers no text box', async () => {
    render(<ReplyComposer review={review()} hasCredentials={false} onDone={() => undefined} />);
    const note = screen.getByRole('note');
    expect(note.textContent).toBe("Replies go through Google Play’s own API: add this app’s Google Play service account on the Apps page (its Store credentials), then reply here.");
    expect(screen.getByRole('link', { name: 'Apps page' }).getAttribute('href')).toBe('/dashboard/apps');
    expect(screen.queryByLabelText('Your reply')).toBeNull();
    await waitFor(() => expect(screen.queryByText(/Loading/)).toBeNull());
  });
});
