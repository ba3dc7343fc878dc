/**
 * Reviews for API tests, written straight into the tables the engine fills: an app of the organisation with the given
 * reviews (hours ago, rating, country, language…), so list and filter tests need no poll.
 */
import { getDb } from '@/server/db/client';
import type { SignedInUser } from './orgs';

let n = 0;
const uniq = () => `${Date.now().toString(36)}${++n}`;
export const HOUR = 3_600_000;

export type Seed = {
  title?: string;
  body: string;
  rating?: number;
  country?: string;
  language?: string;
  sentiment?: string;
  reply?: string;
  hoursAgo?: number;
  version?: string;
  /** When the store dated it (instead of hoursAgo). */
  at?: Date;
  textLanguage?: string;
};

/** An app of the organisation with these reviews, written straight into the tables the engine fills. */
export async function appWith(owner: SignedInUser, store: 'apple_app_store' | 'google_play_store', seeds: Seed[]): Promise<string> {
  const db = await getDb();
  const appId = store === 'apple_app_store' ? String(1_700_000_000 + Math.floor(Math.random() * 1e8)) : `com.inbox.t${uniq()}`;
  const key = `${store}__${appId}`;
  await db.insertInto('apps').values({ key, store, app_id: appId, title: `App ${appId}`, icon_url: null, store_url: null, developer: null }).execute();
  await db.insertInto('org_apps').values({ org_id: owner.orgId, app_key: key, countries: store === 'apple_app_store' ? ['us'] : [], added_by: owner.userId, added_by_email: owner.email }).execute();
  await addReviews(key, seeds);
  return key;
}

/** More reviews of an app made by appWith, as a poll stores its news; their ids, in the order of `seeds`. */
export async function addReviews(appKey: string, seeds: Seed[]): Promise<string[]> {
  const db = await getDb();
  const store = appKey.slice(0, appKey.indexOf('__'));
  const rows = seeds.map((s) => ({
    app_key: appKey,
    store,
    store_review_id: `r${uniq()}`,
    country: s.country ?? 'us',
    language: s.language ?? 'en',
    author_name: `Author ${s.body.slice(0, 8)}`,
    title: s.title ?? null,
    body: s.body,
    rating: s.rating ?? 5,
    app_version: s.version ?? '1.0',
    updated_at: s.at ?? new Date(Date.now() - (s.hoursAgo ?? 0) * HOUR),
    text_language: s.textLanguage ?? null,
    reply_text: s.reply ?? null,
    sentiment: s.sentiment ?? null,
    sentiment_score: null,
    written_at: null,
    reply_updated_at: s.reply ? new Date() : null,
    permalink: null,
  }));
  const ids: string[] = [];
  // In batches: one statement per review made files with hundreds of reviews slow.
  for (let i = 0; i < rows.length; i += 500) {
    const added = await db.insertInto('reviews').values(rows.slice(i, i + 500)).returning(['id']).execute();
    ids.push(...added.map((r) => String(r.id)));
  }
  return ids;
}
