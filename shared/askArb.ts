/**
 * Ask ARB, the parts the browser and the server share: a review as an answer cites it, the chat request, a stored
 * message, and the events of a streamed answer. Pure: the pages import it.
 */

export type AskStore = 'apple_app_store' | 'google_play_store';

/** A review as the tools return it and as an answer cites it. `date` is ISO 8601; `permalink` opens it in the store. */
export type AskReview = {
  id: string;
  app_store: AskStore;
  app_id: string;
  author: string | null;
  rating: number;
  title: string | null;
  body: string;
  date: string;
  country: string | null;
  version: string | null;
  language: string | null;
  permalink: string | null;
};

/** A cited review with its number: the answer text cites it as `[n]`. */
export type AskCitation = AskReview & { n: number };

/** How an answer was made: by the language model with tools, computed without one, or no answer at all. */
export type AskMethod = 'llm' | 'computed' | 'none';

export type AskRole = 'user' | 'assistant';

/** POST v1/public/ask-arb/chat. A visitor names the app (`app_id` + `app_store`); a signed-in user asks over the org's apps. */
export type AskChatRequest = {
  messages: Array<{ role: AskRole; content: string }>;
  app_id?: string;
  app_store?: AskStore;
  chat_id?: string;
  stream?: boolean;
};

/** A stored message of a chat. `created_at` is ISO 8601. */
export type AskMessage = {
  id: string;
  role: AskRole;
  content: string;
  citations: AskCitation[];
  method: AskMethod;
  created_at: string;
};

/** The answer without `stream`. */
export type AskChatResponse = { chat_id: string; message: AskMessage };

/** GET v1/public/ask-arb/chat/{id}. */
export type AskChatHistory = { id: string; messages: AskMessage[] };

/** The events of a streamed answer (text/event-stream), each `event: <type>` with `data: <JSON payload>`. */
export type AskStreamEvent =
  | { event: 'meta'; data: { chat_id: string } }
  | { event: 'token'; data: { text: string } }
  | { event: 'citation'; data: AskCitation }
  | { event: 'done'; data: { message: AskMessage } }
  | { event: 'error'; data: { code: string; message: string } };
