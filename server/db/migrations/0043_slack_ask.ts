import { sql, type Kysely } from 'kysely';

// Ask ARB in Slack (issue 33 point 4, server/slack/README.md "Asking ARB in Slack").
// - destinations.slack_channel_id: the channel "Add to Slack" posted to (Slack's install answer names it; an incoming
//   webhook's URL does not), so `/arb` and a mention in a channel are answered about that channel's apps. Filled for
//   older installs from the messages a Reply was clicked on (slack_reply_messages keeps their channel), and by every
//   later Reply click (server/slack/askData.ts).
// - slack_events_seen: the Events API deliveries already taken (Slack's event_id), so a mention is answered once
//   however often Slack retries it; kept a day (Slack retries for about an hour).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table destinations add column slack_channel_id text`.execute(db);
  await sql`update destinations d set slack_channel_id = m.channel_id
              from (select distinct on (destination_id) destination_id, channel_id from slack_reply_messages
                     order by destination_id, response_url_at desc) m
             where m.destination_id = d.id and d.slack_team_id is not null`.execute(db);
  await sql`create index destinations_slack_channel on destinations (slack_team_id, slack_channel_id) where slack_channel_id is not null`.execute(db);
  await db.schema
    .createTable('slack_events_seen')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index slack_events_seen_at on slack_events_seen (seen_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('slack_events_seen').ifExists().execute();
  await sql`drop index if exists destinations_slack_channel`.execute(db);
  await sql`alter table destinations drop column if exists slack_channel_id`.execute(db);
}
