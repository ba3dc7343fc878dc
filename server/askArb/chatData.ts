/**
 * Ask ARB's conversations (tables ask_arb_chats, ask_arb_messages; migration 0026) and the apps a question may read:
 * the only SQL of the conversation side. The reviews themselves are read by the tools (data.ts).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';
import type { AskCitation, AskMessage, AskMethod, AskRole } from '@/shared/askArb';
import type { AskFilters, AskIntent, AskScope, AskStore, ParsedQuestion } from './types';

const dbOf = async (db?: DB) => db ?? (await getDb());

/** 24 random bytes: a visitor's chat is readable by whoever holds its id, so the id is the secret. */
export const newChatId = () => `chat_${randomBytes(24).toString('base64url')}`;
const newMessageId = () => `msg_${randomBytes(12).toString('hex')}`;

export type ChatRow = { id: string; org_id: string | null; app_key: string | null; filters: AskFilters; intent: AskIntent | null; topic: string | null };

export async function getChat(id: string, db?: DB): Promise<ChatRow | undefined> {
  const row = await (await dbOf(db)).selectFrom('ask_arb_chats').select(['id', 'org_id', 'app_key', 'filters', 'intent', 'topic']).where('id', '=', id).executeTakeFirst();
  return row && { ...row, filters: (row.filters ?? {}) as AskFilters, intent: row.intent as AskIntent | null };
}

export async function createChat(input: { orgId: string | null; appKey: string | null }, db?: DB): Promise<ChatRow> {
  const id = newChatId();
  await (await dbOf(db)).insertInto('ask_arb_chats').values({ id, org_id: input.orgId, app_key: input.appKey, filters: '{}' }).execute();
  return { id, org_id: input.orgId, app_key: input.appKey, filters: {}, intent: null, topic: null };
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export async function chatMessages(chatId: string, db?: DB): Promise<AskMessage[]> {
  const rows = await (await dbOf(db))
    .selectFrom('ask_arb_messages')
    .select(['id', 'role', 'content', 'citations', 'method', 'created_at'])
    .where('chat_id', '=', chatId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({ id: r.id, role: r.role, content: r.content, citations: (r.citations ?? []) as AskCitation[], method: r.method, created_at: iso(r.created_at) }));
}

export type NewMessage = { role: AskRole; content: string; citations?: AskCitation[]; method: AskMethod };

/** Appends the messages in order and keeps the question's filters, intent and topic for a follow-up; the stored messages. */
export async function appendMessages(chatId: string, messages: NewMessage[], read: ParsedQuestion): Promise<AskMessage[]> {
  return (await getDb()).transaction().execute(async (trx) => {
    // The chat's row, locked: two answers finishing at once for one chat are numbered one after the other.
    await trx.updateTable('ask_arb_chats').set({ filters: JSON.stringify(read.filters), intent: read.intent, topic: read.topic ?? null, updated_at: sql`now()` }).where('id', '=', chatId).execute();
    const last = await trx.selectFrom('ask_arb_messages').select((e) => e.fn.max('seq').as('seq')).where('chat_id', '=', chatId).executeTakeFirst();
    let seq = Number(last?.seq ?? 0);
    const rows = messages.map((m) => ({
      id: newMessageId(),
      chat_id: chatId,
      seq: ++seq,
      role: m.role,
      content: m.content,
      citations: JSON.stringify(m.citations ?? []),
      method: m.method,
    }));
    const stored = await trx.insertInto('ask_arb_messages').values(rows).returning(['id', 'role', 'content', 'method', 'created_at']).execute();
    return stored.map((r, i) => ({ id: r.id, role: r.role, content: r.content, citations: messages[i].citations ?? [], method: r.method, created_at: iso(r.created_at) }));
  });
}

/** A stored app's title (a visitor's chat names its app by key). */
export async function appByKey(appKey: string, db?: DB): Promise<AskScope['apps'][number] | undefined> {
  const row = await (await dbOf(db)).selectFrom('apps').select(['store', 'app_id', 'title']).where('key', '=', appKey).executeTakeFirst();
  return row && { appStore: row.store as AskStore, appId: row.app_id, title: row.title };
}

