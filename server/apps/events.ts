/**
 * Product events about apps (docs/PRODUCT.md, Browser state: choosing an app records an app_selected event).
 * Only events listed here are stored, so the table holds what we can interpret later.
 */
import { getDb } from '../db/client';
import type { AppStore } from './types';

export const APP_EVENTS = ['app_selected'] as const;
export type AppEventName = (typeof APP_EVENTS)[number];

export async function recordAppEvent(input: {
  event: AppEventName;
  appId: string;
  appStore: AppStore;
  userId: string | null;
}): Promise<void> {
  const db = await getDb();
  await db
    .insertInto('app_events')
    .values({ event: input.event, app_id: input.appId, app_store: input.appStore, user_id: input.userId })
    .execute();
}
