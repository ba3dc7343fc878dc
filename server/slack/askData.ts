/**
 * The SQL of asking ARB in Slack (askScope.ts, askEvents.ts): which ARB channels a Slack channel is, the workspace's
 * bot, and the Events API deliveries already taken.
 */
import { sql } from 'kysely';
import { getDb } from '../db/client';
import { decryptSecret } from '../crypto';
import type { AskStore } from '../askArb/types';

export type ChannelApp = { orgId: string; orgName: string; appStore: AskStore; appId: string; title: string };

/**
 * The apps the ARB destinations in Slack channel `channelId` of workspace `teamId` watch, with their organisation:
 * destinations installed with "Add to Slack" from the dashboard (an organisation's, with the workspace), not disabled.
 * A channel can hold several (one install per app), even of several organisations; each app once per organisation.
 */
export async function channelApps(teamId: string, channelId: string): Promise<ChannelApp[]> {
  const db = await getDb();
  const r = await sql<{ org_id: string; org_name: string; store: AskStore; app_id: string; title: string }>`
    select distinct d.org_id, o.name as org_name, a.store, a.app_id, a.title
      from destinations d
      join orgs o on o.id = d.org_id
      join destination_apps da on da.destination_id = d.id
      join apps a on a.key = da.app_key
     where d.platform = 'slack' and d.slack_team_id = ${teamId} and d.slack_channel_id = ${channelId}
       and d.status <> 'disabled'
     order by a.title, a.store, a.app_id`.execute(db);
  return r.rows.map((x) => ({ orgId: x.org_id, orgName: x.org_name, appStore: x.store, appId: x.app_id, title: x.title }));
}

/**
 * The organisations that have channels in workspace `teamId`, each with one of its destinations there (what a
 * "Link your Slack account" token names: linking checks the member against that destination's organisation).
 */
export async function workspaceOrgs(teamId: string): Promise<Array<{ orgId: string; orgName: string; destinationId: string }>> {
  const db = await getDb();
  const r = await sql<{ org_id: string; org_name: string; destination_id: string }>`
    select distinct on (d.org_id) d.org_id, o.name as org_name, d.id as destination_id
      from destinations d join orgs o on o.id = d.org_id
     where d.platform = 'slack' and d.slack_team_id = ${teamId} and d.status <> 'disabled'
     order by d.org_id, d.created_at`.execute(db);
  return r.rows.map((x) => ({ orgId: x.org_id, orgName: x.org_name, destinationId: x.destination_id }));
}

export async function orgName(orgId: string): Promise<string | null> {
  const db = await getDb();
  const r = await sql<{ name: string }>`select name from orgs where id = ${orgId}`.execute(db);
  return r.rows[0]?.name ?? null;
}

/** The workspace's bot (token decrypted), as "Add to Slack" stored it; undefined for a workspace never installed. */
export async function workspaceBot(teamId: string): Promise<{ botToken: string; botUserId: string | null } | undefined> {
  const db = await getDb();
  const r = await sql<{ bot_token_enc: string; bot_user_id: string | null }>`
    select bot_token_enc, bot_user_id from slack_workspaces where team_id = ${teamId}`.execute(db);
  const row = r.rows[0];
  return row ? { botToken: decryptSecret(row.bot_token_enc), botUserId: row.bot_user_id } : undefined;
}

/**
 * The channel a Reply click came from is that destination's channel (the button is on a message its webhook posted):
 * kept for installs made before ARB stored the channel at install.
 */
export async function learnDestinationChannel(destinationId: string, teamId: string, channelId: string): Promise<void> {
  const db = await getDb();
  await sql`update destinations set slack_channel_id = ${channelId}
             where id = ${destinationId} and platform = 'slack' and slack_team_id = ${teamId} and slack_channel_id is null`.execute(db);
}

/** How long a taken event id is remembered: Slack retries a delivery for about an hour. */
const EVENT_MEMORY_HOURS = 24;

/**
 * Takes the Events API delivery `eventId`: true the first time, false for every retry of it (one insert decides, so
 * two processes receiving the same retry cannot both take it). Old ids are dropped on the way.
 */
export async function takeSlackEvent(eventId: string): Promise<boolean> {
  const db = await getDb();
  await sql`delete from slack_events_seen where seen_at < now() - ${EVENT_MEMORY_HOURS} * interval '1 hour'`.execute(db);
  const r = await sql`insert into slack_events_seen (event_id) values (${eventId}) on conflict (event_id) do nothing returning event_id`.execute(db);
  return r.rows.length > 0;
}
