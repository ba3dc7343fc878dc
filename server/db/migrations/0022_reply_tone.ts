import { sql, type Kysely } from 'kysely';

// The tone "Draft a reply" writes in, chosen per app of an organisation (friendly, formal or brief): the person who
// drafts picks it once and the app keeps it for everyone in the organisation.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table org_apps add column reply_tone text not null default 'friendly'
              constraint org_apps_reply_tone_check check (reply_tone in ('friendly', 'formal', 'brief'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table org_apps drop column if exists reply_tone`.execute(db);
}
