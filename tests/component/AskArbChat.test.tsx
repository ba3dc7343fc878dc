// The Ask ARB chat against a loopback API that streams real Server-Sent Events in small byte slices (events and a
// multi-byte character split across network chunks, keep-alive comments): the answer shows while it streams, its
// citations open the review, Stop aborts the request, a mid-stream error and the allowances are said in words with
// the way on, follow-ups carry the chat id and the conversation, and a chat this tab was in is restored.
import { act, screen, waitFor, within } from '@testing-library/react';
import type http from 'node:http';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import AskChat from '@/components/askArb/AskChat';
import OrgChat from '@/components/askArb/OrgChat';
import VisitorChat from '@/components/askArb/VisitorChat';
import { DASHBOARD_CHAT_KEY, VISITOR_CHAT_KEY, type ChatApp } from '@/components/askArb/chatStorage';
import { formatDate } from '@/lib/formatDate';
import type { AskCitation, AskMessage } from '@/shared/askArb';
import { render } from '@/tests/helpers/render';
import type { RecordedRequest } from '@/tests/fakes/http';
import { fail, notPreflight, ok, route, startApiFake, type ApiFake, type Responder } from './support/apiFake';
import { orgApp } from './support/answers';
import { signedInWithApiFake } from './support/signedIn';

const CHAT = '/api/v1/public/ask-arb/chat';
const APP: ChatApp = { id: '284882215', store: 'apple_app_store', title: 'Lantern' };

const citation = (n: number, over: Partial<AskCitation> = {}): AskCitation => ({
  n,
  id: `r${n}`,
  app_store: 'apple_app_store',
  app_id: APP.id,
  author: n === 1 ? 'Mia' : 'Jonas',
  rating: n,
  title: n === 1 ? 'Crashes at login' : 'Login loop',
  body: n === 1 ? 'Since 2.3 it crashes every time I log in. Grüße' : 'Stuck in a login loop after the update.',
  date: '2026-03-03T10:00:00.000Z',
  country: n === 1 ? 'us' : 'de',
  version: '2.3',
  language: 'en',
  permalink: `https://apps.apple.com/us/app/id${APP.id}?see-all=reviews#r${n}`,
  ...over,
});
const ANSWER = 'Two reviews say the app crashes at login — both since 2.3 [1][2].';
const message = (content: string, citations: AskCitation[], over: Partial<AskMessage> = {}): AskMessage => ({
  id: 'msg_2',
  role: 'assistant',
  content,
  citations,
  method: 'llm',
  created_at: '2026-03-04T09:00:00.000Z',
  ...over,
});

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** Writes `text` in `size`-byte slices, each its own network chunk (a turn of the event loop between writes). */
async function writeSliced(res: http.ServerResponse, text: string, size = 7) {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length && !res.destroyed; i += size) {
    res.write(bytes.subarray(i, i + size));
    await new Promise((r) => setImmediate(r));
  }
}

function startStream(res: http.ServerResponse) {
  res.socket?.setNoDelay(true);
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
}

const tokens = (text: string) => (text.match(/\S+\s*/g) ?? []).map((t) => sse('token', { text: t })).join('');

/** A streamed answer: meta, tokens up to `pauseAfter` characters, then waits for `gate` before the rest and done. */
function streamedAnswer(chatId: string, content: string, citations: AskCitation[], gate: Promise<void> = Promise.resolve(), pauseAt = 20): Responder {
  return async (_req, res) => {
    startStream(res);
    await writeSliced(res, sse('meta', { chat_id: chatId }) + ': keep-alive\n\n' + tokens(content.slice(0, pauseAt)));
    await gate;
    await writeSliced(res, tokens(content.slice(pauseAt)) + citations.map((c) => sse('citation', c)).join('') + sse('done', { message: message(content, citations) }));
    res.end();
  };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const bodies = (fake: ApiFake) => fake.requests.filter(notPreflight).filter((r: RecordedRequest) => r.path === CHAT).map((r) => JSON.parse(r.body) as Record<string, unknown>);
/** Streams arrive in 7-byte slices: on a busy machine an answer takes longer than Testing Library's 1 s default. */
const SLOW = { timeout: 8000 };
const statusLine = () => screen.getAllByRole('status').find((el) => el.getAttribute('aria-atomic') === 'true')!;

let fake: ApiFake | undefined;
beforeEach(() => sessionStorage.clear());
afterEach(async () => {
  fake?.restore();
  await fake?.close();
  fake = undefined;
});

describe('Ask ARB chat (visitor)', () => {
  test('the answer shows while it streams, the status line says so once, citations open the review, a follow-up carries the chat', async () => {
    const gate = deferred();
    let answers = 0;
    fake = await startApiFake([
      route('POST', CHAT, (req, res) => (answers++ === 0 ? streamedAnswer('chat_abc', ANSWER, [citation(1), citation(2)], gate.promise)(req, res) : streamedAnswer('chat_abc', 'In Germany: one [1].', [citation(1, { id: 'r2', author: 'Jonas' })])(req, res))),
    ]);
    const { user } = render(<AskChat tone="dark" storageKey={VISITOR_CHAT_KEY} app={APP} />);
    await user.type(screen.getByLabelText('Your question'), 'Why do people complain about login?{Enter}');

    // Part of the answer is on screen before it is done; the status line does not repeat the tokens.
    expect(await screen.findByText(/Two reviews say the/, undefined, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Review 1/ })).toBeNull();
    expect(statusLine().textContent).toBe('Ask ARB is answering…');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Conversation' })).toHaveAttribute('aria-busy', 'true');

    act(() => gate.resolve());
    const cite = await screen.findByRole('button', { name: 'Review 1: 1 star by Mia' }, SLOW);
    expect(screen.getByText(/crashes at login — both since 2.3/)).toBeInTheDocument();
    await waitFor(() => expect(statusLine().textContent).toBe(`Ask ARB answered: ${ANSWER}`), SLOW);
    expect(JSON.parse(sessionStorage.getItem(VISITOR_CHAT_KEY)!)).toEqual({ chatId: 'chat_abc', app: APP });

    await user.click(cite);
    const dialog = screen.getByRole('dialog', { name: 'Review [1]' });
    expect(dialog).toHaveTextContent('Mia');
    expect(dialog).toHaveTextContent('1 out of 5 stars');
    // The reader's date format (lib/formatDate.ts), the same as everywhere in the dashboard.
    expect(dialog).toHaveTextContent(formatDate('2026-03-03T10:00:00.000Z'));
    expect(dialog).toHaveTextContent('Since 2.3 it crashes every time I log in. Grüße');
    expect(within(dialog).getByRole('link', { name: 'Open in App Store' })).toHaveAttribute('href', citation(1).permalink);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(cite).toHaveFocus();

    await user.type(screen.getByLabelText('Ask a follow-up question'), 'and in Germany?{Enter}');
    expect(await screen.findByText(/In Germany: one/, undefined, SLOW)).toBeInTheDocument();
    const [first, second] = bodies(fake);
    expect(first).toEqual({ messages: [{ role: 'user', content: 'Why do people complain about login?' }], app_id: APP.id, app_store: APP.store, stream: true });
    expect(second).toEqual({
      messages: [
        { role: 'user', content: 'Why do people complain about login?' },
        { role: 'assistant', content: ANSWER },
        { role: 'user', content: 'and in Germany?' },
      ],
      chat_id: 'chat_abc',
      app_id: APP.id,
      app_store: APP.store,
      stream: true,
    });
  });

  test('Stop aborts the request; what arrived stays, marked stopped', async () => {
    const closed = deferred();
    fake = await startApiFake([
      route('POST', CHAT, async (_req, res) => {
        startStream(res);
        res.on('close', closed.resolve);
        await writeSliced(res, sse('meta', { chat_id: 'chat_s' }) + tokens('Looking at the 1-star reviews '));
      }),
    ]);
    const { user } = render(<AskChat tone="dark" storageKey={VISITOR_CHAT_KEY} app={APP} />);
    await user.type(screen.getByLabelText('Your question'), 'What is wrong?{Enter}');
    expect(await screen.findByText(/Looking at the 1-star reviews/, undefined, SLOW)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await closed.promise; // the server saw the request end
    expect(await screen.findByText(/Stopped\./, undefined, SLOW)).toBeInTheDocument();
    expect(screen.getByText(/Looking at the 1-star reviews/)).toBeInTheDocument();
    expect(screen.getByLabelText('Ask a follow-up question')).toHaveFocus();
    expect(statusLine().textContent).toBe('Answer stopped.');
  });

  test('an error in the middle of the answer is said in words; Ask again asks the same question', async () => {
    let answers = 0;
    fake = await startApiFake([
      route('POST', CHAT, async (req, res) => {
        if (answers++ > 0) return streamedAnswer('chat_e', 'Three reviews [1].', [citation(1)])(req, res);
        startStream(res);
        await writeSliced(res, sse('meta', { chat_id: 'chat_e' }) + tokens('Half an ') + sse('error', { code: 'llm_unavailable', message: 'The language model is not answering. Please try again in a few minutes.' }));
        res.end();
      }),
    ]);
    const { user } = render(<AskChat tone="dark" storageKey={VISITOR_CHAT_KEY} app={APP} />);
    await user.type(screen.getByLabelText('Your question'), 'How many crashes?{Enter}');
    expect(await screen.findByRole('alert', undefined, SLOW)).toHaveTextContent('The language model is not answering. Please try again in a few minutes.');
    expect(screen.getByText(/Half an/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ask again' }));
    expect(await screen.findByRole('button', { name: 'Review 1: 1 star by Mia' }, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getAllByText('How many crashes?')).toHaveLength(1);
    expect(bodies(fake)[1]).toMatchObject({ messages: [{ role: 'user', content: 'How many crashes?' }], chat_id: 'chat_e' });
  });

  test('the daily allowance used up: the server’s words, a way on, and no pointless Ask again', async () => {
    sessionStorage.setItem(VISITOR_CHAT_KEY, JSON.stringify({ app: APP }));
    fake = await startApiFake([route('POST', CHAT, fail(429, 'rate_limited', 'You have asked 10 questions today from this network. Ask again tomorrow.'))]);
    const { user } = render(<VisitorChat />);
    expect(screen.getByText('Lantern')).toBeInTheDocument(); // the app this tab chose
    await user.type(screen.getByLabelText('Your question'), 'How many reviews?{Enter}');
    const alert = await screen.findByRole('alert', undefined, SLOW);
    expect(alert).toHaveTextContent('You have asked 10 questions today from this network. Ask again tomorrow.');
    expect(within(alert).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?redirect_to=/dashboard/ask');
    expect(within(alert).queryByRole('button', { name: 'Ask again' })).toBeNull();
  });

  test('without an app nothing can be asked yet, and the box says why', async () => {
    const { user } = render(<VisitorChat />);
    expect(screen.getByRole('searchbox', { name: 'Which app should ARB look at?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ask' })).toBeDisabled();
    expect(screen.getByLabelText('Your question')).toHaveAccessibleDescription('Choose an app first: Ask ARB answers from its reviews.');
    await user.type(screen.getByLabelText('Your question'), 'Hello{Enter}');
    expect(screen.queryByRole('list', { name: 'Conversation' })).toBeNull();
  });

  test('the app is picked from the store search (its own searchbox name), then the question box has the focus and asks about it', async () => {
    const found = { app_id: APP.id, app_store: 'apple_app_store', title: 'Lantern', developer: 'Glow Ltd', icon: null };
    fake = await startApiFake([
      route('POST', '/api/search', (req, res) => {
        const apple = (JSON.parse(req.body) as { app_store: string }).app_store === 'apple_app_store';
        void ok(apple ? [found] : [])(req, res);
      }),
      route('POST', CHAT, streamedAnswer('chat_p', 'Lantern has 3 reviews [1].', [citation(1)])),
    ]);
    vi.stubEnv('NEXT_PUBLIC_SEARCH_BASE', fake.apiBase);
    const { user } = render(<VisitorChat />);
    expect(screen.queryByRole('searchbox', { name: 'Search your app' })).toBeNull();
    await user.type(screen.getByRole('searchbox', { name: 'Which app should ARB look at?' }), 'lant');
    await user.click(await screen.findByRole('button', { name: /Lantern.*Glow Ltd · App Store/ }, SLOW));
    expect(screen.getByText(/Asking about/)).toHaveTextContent('Asking about Lantern (App Store)');
    expect(screen.getByLabelText('Your question')).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Ask' })).toBeEnabled();
    await user.keyboard('How many reviews?{Enter}');
    expect(await screen.findByText(/Lantern has 3 reviews/, undefined, SLOW)).toBeInTheDocument();
    expect(bodies(fake)[0]).toMatchObject({ app_id: APP.id, app_store: 'apple_app_store' });
    await user.click(screen.getByRole('button', { name: 'Choose another app' }));
    expect(sessionStorage.getItem(VISITOR_CHAT_KEY)).toBeNull(); // another app is another conversation
    expect(screen.queryByRole('list', { name: 'Conversation' })).toBeNull();
  });

  test('the chat this tab was in is restored from GET chat/{id}, and the next question continues it', async () => {
    sessionStorage.setItem(VISITOR_CHAT_KEY, JSON.stringify({ chatId: 'chat_r', app: APP }));
    const history = {
      id: 'chat_r',
      messages: [
        message('What about login?', [], { id: 'msg_1', role: 'user', method: 'none', created_at: '2026-03-04T09:00:00.000Z' }),
        message('Login fails for some [1].', [citation(1)]),
      ],
    };
    fake = await startApiFake([route('GET', `${CHAT}/chat_r`, ok(history)), route('POST', CHAT, streamedAnswer('chat_r', 'Since version 2.3 [1].', [citation(1)]))]);
    const { user } = render(<VisitorChat />);
    expect(await screen.findByText('What about login?', undefined, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Review 1: 1 star by Mia' })).toBeInTheDocument();
    expect(screen.getByText(/Asking about/)).toHaveTextContent('Asking about Lantern (App Store)');
    expect(statusLine().textContent).toBe(''); // a restored answer is not read out again
    await user.type(screen.getByLabelText('Ask a follow-up question'), 'Since when?{Enter}');
    expect(await screen.findByText(/Since version 2.3/, undefined, SLOW)).toBeInTheDocument();
    expect(bodies(fake)[0]).toMatchObject({ chat_id: 'chat_r', messages: [{ role: 'user' }, { role: 'assistant', content: 'Login fails for some [1].' }, { role: 'user', content: 'Since when?' }] });
  });

  test('a chat that can no longer be read is forgotten, and the next question starts a new one', async () => {
    sessionStorage.setItem(VISITOR_CHAT_KEY, JSON.stringify({ chatId: 'chat_gone', app: APP }));
    fake = await startApiFake([route('GET', `${CHAT}/chat_gone`, fail(404, 'not_found', 'No such chat.')), route('POST', CHAT, streamedAnswer('chat_new', 'Fine [1].', [citation(1)]))]);
    const { user } = render(<VisitorChat />);
    expect(await screen.findByText(/could not be loaded/, undefined, SLOW)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Your question'), 'Anything?{Enter}');
    expect(await screen.findByText(/Fine/, undefined, SLOW)).toBeInTheDocument();
    expect(bodies(fake)[0]).not.toHaveProperty('chat_id');
  });
});

describe('Ask ARB chat (dashboard)', () => {
  const api = signedInWithApiFake('ana@example.com', 'org_7');
  const lantern = orgApp({ app_id: APP.id, app_store: APP.store, title: 'Lantern' });

  test('asks over the organisation’s apps with the bearer; the plan allowance used up points to Billing', async () => {
    sessionStorage.removeItem(DASHBOARD_CHAT_KEY);
    await api.start([
      route('GET', '/api/v1/org/apps', ok([lantern])),
      route('POST', CHAT, fail(402, 'plan_limit', 'Your Free plan includes 20 Ask ARB questions a month. Upgrade to Startup for 200.')),
    ]);
    const { user } = render(<OrgChat />);
    expect(await screen.findByText(/stored reviews of Lantern \(App Store\)/, undefined, SLOW)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Your question'), 'How many 1-star reviews last week?{Enter}');
    const alert = await screen.findByRole('alert', undefined, SLOW);
    expect(alert).toHaveTextContent('Your Free plan includes 20 Ask ARB questions a month. Upgrade to Startup for 200.');
    expect(within(alert).getByRole('link', { name: 'See plans in Billing' })).toHaveAttribute('href', '/dashboard/billing');
    const asked = api.fake!.requests.filter(notPreflight).find((r) => r.path === CHAT)!;
    expect(asked.headers.authorization).toMatch(/^Bearer ey/);
    expect(JSON.parse(asked.body)).toEqual({ messages: [{ role: 'user', content: 'How many 1-star reviews last week?' }], stream: true });
  });

  test('the app in view (?app= from its page, or "Ask about") goes with the question; "All apps" sends none', async () => {
    sessionStorage.removeItem(DASHBOARD_CHAT_KEY);
    const beacon = orgApp({ app_id: 'com.beacon', app_store: 'google_play_store', title: 'Beacon' });
    await api.start([route('GET', '/api/v1/org/apps', ok([lantern, beacon])), route('POST', CHAT, streamedAnswer('chat_v', 'Three reviews.', []))]);
    const { user, router } = render(<OrgChat />, { url: `/dashboard/ask?app=${encodeURIComponent(beacon.key)}`, pathname: '/dashboard/ask' });
    const picker = await screen.findByRole('combobox', { name: 'Ask about' }, SLOW);
    expect(picker).toHaveDisplayValue('Beacon (Google Play)');
    await user.type(screen.getByLabelText('Your question'), 'How many reviews?{Enter}');
    await waitFor(() => expect(api.fake!.requests.filter(notPreflight).filter((r) => r.path === CHAT)).toHaveLength(1), SLOW);
    const chats = () => api.fake!.requests.filter(notPreflight).filter((r) => r.path === CHAT).map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(chats()[0]).toMatchObject({ app_id: 'com.beacon', app_store: 'google_play_store' });
    await screen.findByText('Three reviews.', undefined, SLOW);
    await user.selectOptions(picker, 'All apps');
    await waitFor(() => expect(router.query.app).toBeUndefined());
    await user.type(screen.getByLabelText('Ask a follow-up question'), 'And overall?{Enter}');
    await waitFor(() => expect(chats()).toHaveLength(2), SLOW);
    expect(chats()[1]).not.toHaveProperty('app_id');
  });
});
