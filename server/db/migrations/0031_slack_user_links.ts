import { sql, type Kysely } from 'kysely';

// Who may reply from Slack (server/slack/links.ts): a Slack user (workspace + user id) linked to one ARB member by a
// one-time link they opened while signed in to ARB. The link names the organisation the member was in when they
// linked; a trigger removes it the moment the member's users.org_id changes (removed, left, joined another
// organisation), whichever path moves them, and deleting the user or the organisation deletes it too.
// `slack_link_uses` keeps the nonce of every link token used, until it expires: a link works once.
// Channels that were installed with "Add to Slack" without a session and claimed later keep no workspace: only channels
// an admin added from the dashboard (audited as destination.added) carry the Reply button.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('slack_user_links')
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('slack_user_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('slack_user_links_pkey', ['team_id', 'slack_user_id'])
    .execute();
  await db.schema.createIndex('slack_user_links_user').on('slack_user_links').column('user_id').execute();
  await db.schema
    .createTable('slack_link_uses')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await sql`create function slack_user_links_follow_org() returns trigger language plpgsql as $$
    begin
      delete from slack_user_links where user_id = new.id and org_id is distinct from new.org_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger users_org_change_unlinks_slack after update of org_id on users
            for each row when (old.org_id is distinct from new.org_id) execute function slack_user_links_follow_org()`.execute(db);

  await sql`update destinations d set slack_team_id = null
             where d.slack_team_id is not null
               and (d.org_id is null
                    or not exists (select 1 from audit_log a
                                    where a.org_id = d.org_id and a.action = 'destination.added' and a.details->>'id' = d.id))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists users_org_change_unlinks_slack on users`.execute(db);
  await sql`drop function if exists slack_user_links_follow_org()`.execute(db);
  await db.schema.dropTable('slack_link_uses').ifExists().execute();
  await db.schema.dropTable('slack_user_links').ifExists().execute();
}
