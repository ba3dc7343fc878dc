import { sql, type Kysely } from 'kysely';

// Slack workspaces that installed ARB through "Add to Slack": the bot token Slack gave with the incoming webhook
// (encrypted; it opens the Reply form and looks up who clicked), and which destinations came from which workspace, so
// a review message there can carry a Reply button and a click can be traced back to the destination's organisation.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('slack_workspaces')
    .addColumn('team_id', 'text', (c) => c.primaryKey())
    .addColumn('team_name', 'text')
    .addColumn('bot_token_enc', 'text', (c) => c.notNull())
    .addColumn('bot_user_id', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table destinations add column slack_team_id text references slack_workspaces(team_id) on delete set null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table destinations drop column if exists slack_team_id`.execute(db);
  await db.schema.dropTable('slack_workspaces').ifExists().execute();
}
