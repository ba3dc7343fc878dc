/**
 * Which Ask ARB chat this tab is in, kept in sessionStorage so a reload (or coming back to the page) restores it from
 * `GET v1/public/ask-arb/chat/{id}`: the chat id and, for a visitor, the app the chat is about (the server's answer
 * has the messages, not the app). Per tab and per place: the public page and the dashboard keep their own.
 * Kept free of the chat itself so the page can check for a chat without loading it.
 */
import type { AskStore } from '@/shared/askArb';

export type ChatApp = { id: string; store: AskStore; title: string };
export type StoredChat = { chatId?: string; app?: ChatApp };

export const VISITOR_CHAT_KEY = 'arb-ask-chat';
export const DASHBOARD_CHAT_KEY = 'arb-ask-chat-dashboard';

export function readStoredChat(key: string): StoredChat | null {
  try {
    const raw = window.sessionStorage.getItem(key);
    const value = raw ? (JSON.parse(raw) as StoredChat) : null;
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null; // storage refused (private mode) or a damaged entry: start afresh
  }
}

export function storeChat(key: string, value: StoredChat): void {
  try {
    window.sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Without storage the chat still works; it is just not restored after a reload.
  }
}

export function forgetChat(key: string): void {
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // nothing stored then
  }
}
