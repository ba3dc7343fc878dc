/** Data functions for contact_messages. */
import { getDb, type DB } from '../db/client';

export async function createContactMessage(input: { email: string; message: string; ip: string }, db?: DB): Promise<number> {
  const d = db ?? (await getDb());
  const row = await d
    .insertInto('contact_messages')
    .values({ email: input.email, message: input.message, ip: input.ip })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateContactMessageEmailed(id: number, at: Date, db?: DB): Promise<void> {
  const d = db ?? (await getDb());
  await d.updateTable('contact_messages').set({ emailed_at: at }).where('id', '=', id).execute();
}

/** Messages stored but never e-mailed (mail was down), oldest first, created before `createdBefore`. */
export async function getUnsentContactMessages(input: { createdBefore: Date; createdAfter: Date; limit: number }, db?: DB) {
  const d = db ?? (await getDb());
  return d
    .selectFrom('contact_messages')
    .select(['id', 'email', 'message'])
    .where('emailed_at', 'is', null)
    .where('created_at', '<', input.createdBefore)
    .where('created_at', '>', input.createdAfter)
    .orderBy('id')
    .limit(input.limit)
    .execute();
}

/** Claim an unsent message for sending (false when another process took it); release it again if sending fails. */
export async function claimContactMessage(id: number, at: Date, db?: DB): Promise<boolean> {
  const d = db ?? (await getDb());
  const row = await d
    .updateTable('contact_messages')
    .set({ emailed_at: at })
    .where('id', '=', id)
    .where('emailed_at', 'is', null)
    .returning(['id'])
    .executeTakeFirst();
  return !!row;
}

export async function releaseContactMessage(id: number, db?: DB): Promise<void> {
  const d = db ?? (await getDb());
  await d.updateTable('contact_messages').set({ emailed_at: null }).where('id', '=', id).execute();
}
