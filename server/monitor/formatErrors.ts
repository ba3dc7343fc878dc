/**
 * Store payloads we could not read (SourceFormatError: a page with entries but no readable review). Such a poll is a
 * failure, never "no new reviews": the watermark stays where it was, so nothing is skipped once the format is
 * understood again. Here: recording it (log at error level, counter, monitored_sources.format_error_at), counting the
 * current ones for /api/health, and the owner-facing words for a destination's status.
 *
 * A format error is "current" while format_error_at is newer than the source's last successful poll, so the first
 * good poll ends it without any code having to clear it.
 */
import { sql } from 'kysely';
import type { DB } from '../db/client';
import type { Logger } from '../log';
import { APP_STORE_NAMES } from '@/shared/appStores';
import { count } from './counters';
import type { SourceRow } from './sources';

/** `format_error_at` is newer than the last success (of the monitored_sources row named `table`). */
const isCurrent = (table = 'monitored_sources') =>
  sql<boolean>`${sql.ref(`${table}.format_error_at`)} > coalesce(${sql.ref(`${table}.last_success_at`)}, '-infinity'::timestamptz)`;

export async function recordFormatError(db: DB, source: SourceRow, message: string, plog: Logger): Promise<void> {
  count('format_errors');
  // Error, not warning: the fix is ours (a parser path), and until then the owner gets no reviews from this source.
  plog.error('store payload format not understood; the watermark stays', { error: message });
  await db.updateTable('monitored_sources').set({ format_error_at: sql`now()` }).where('id', '=', source.id).execute();
}

/** Sources whose last answer we could not read (and that have not been read successfully since). */
export async function countCurrentFormatErrors(db: DB): Promise<number> {
  const r = await db.selectFrom('monitored_sources').select(sql<number>`count(*)::int`.as('n')).where(isCurrent()).executeTakeFirstOrThrow();
  return r.n;
}

type ProblemSource = { store: string; title: string; country: string };

/** What the app's owner reads: which store, which app, what it means for them. No technical detail. */
export function formatProblemWords(s: ProblemSource): string {
  const store = APP_STORE_NAMES[s.store as keyof typeof APP_STORE_NAMES] ?? 'The store';
  const where = s.country ? ` (${s.country.toUpperCase()} storefront)` : '';
  return (
    `${store} changed the format of its reviews for ${s.title}${where}, so ARB cannot read new reviews there right now. ` +
    'We have been alerted; reviews written meanwhile will be posted once it can be read again.'
  );
}

/** One sentence per source of these apps that currently fails on a format we cannot read; null when there is none. */
export async function formatProblemFor(db: DB, appKeys: string[]): Promise<string | null> {
  if (appKeys.length === 0) return null;
  const rows = await db
    .selectFrom('monitored_sources as s')
    .innerJoin('apps as a', 'a.key', 's.app_key')
    .select(['a.store', 'a.title', 's.country'])
    .where('s.app_key', 'in', appKeys)
    .where('s.status', '=', 'active')
    .where(isCurrent('s'))
    .orderBy('s.id')
    .execute();
  return rows.length === 0 ? null : rows.map(formatProblemWords).join(' ');
}
