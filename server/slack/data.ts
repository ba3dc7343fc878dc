/**
 * Slack workspaces and the destinations installed from them: the only place with their SQL.
 */
import { sql } from 'kysely';
import { getDb } from '../db/client';
import { decryptSecret, encryptSecret } from '../crypto';
import type { AppRow } from '../monitor/apps';
import type { StoredReview } from '../subscriptions/reviews';

export type SlackInstall = { teamId: string; teamName: string | null; botToken: string; botUserId: string | null; scopes: string };

/**
 * Records (or refreshes: a reinstall gives a new token) a workspace's bot token. The destination names the workspace
 * (`destinations.slack_team_id`, written by createDestination).
 */
export async function saveSlackWorkspace(install: SlackInstall): Promise<void> {
  const db = await getDb();
  await sql`
    insert into slack_workspaces (team_id, team_name, bot_token_enc, bot_user_id, scopes)
    values (${install.teamId}, ${install.teamName}, ${encryptSecret(install.botToken)}, ${install.botUserId}, ${install.scopes})
    on conflict (team_id) do update
       set team_name = excluded.team_name, bot_token_enc = excluded.bot_token_enc, bot_user_id = excluded.bot_user_id,
           scopes = excluded.scopes, updated_at = now()`.execute(db);
}

/** A Slack destination a click came from, with its organisation and its workspace's bot token (decrypted). */
export type ReplyingDestination = {
  id: string;
  orgId: string | null;
  orgName: string | null;
  status: string;
  teamId: string | null;
  botToken: string | null;
};

export async function replyingDestination(destinationId: string): Promise<ReplyingDestination | undefined> {
  const db = await getDb();
  const r = await sql<{ id: string; org_id: string | null; org_name: string | null; status: string; team_id: string | null; bot_token_enc: string | null }>`
    select d.id, d.org_id, o.name as org_name, d.status, w.team_id, w.bot_token_enc
      from destinations d
      left join orgs o on o.id = d.org_id
      left join slack_workspaces w on w.team_id = d.slack_team_id
     where d.id = ${destinationId} and d.platform = 'slack'`.execute(db);
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    orgId: row.org_id,
    orgName: row.org_name,
    status: row.status,
    teamId: row.team_id,
    botToken: row.bot_token_enc ? decryptSecret(row.bot_token_enc) : null,
  };
}

export type OrgMember = { userId: string; email: string; name: string | null };

/** What the reply form shows of the review, and what the updated message is built from. */
export type ReviewForSlack = {
  id: string;
  appKey: string;
  store: 'apple_app_store' | 'google_play_store';
  appTitle: string;
  authorName: string;
  rating: number;
  title: string | null;
  body: string;
};

export async function reviewForSlack(orgId: string, reviewId: string): Promise<ReviewForSlack | undefined> {
  const db = await getDb();
  const r = await sql<ReviewForSlack>`
    select r.id::text as id, r.app_key as "appKey", a.store, a.title as "appTitle", r.author_name as "authorName", r.rating,
           r.title, r.body
      from reviews r
      join apps a on a.key = r.app_key
      join org_apps oa on oa.app_key = r.app_key and oa.org_id = ${orgId}
     where r.id = ${reviewId}::bigint`.execute(db);
  return r.rows[0];
}

const REVIEW_COLUMNS = sql`r.id, r.store_review_id, r.country, r.language, r.author_name, r.title, r.body, r.rating, r.app_version,
  r.written_at, r.updated_at, r.permalink, r.sentiment, r.sentiment_score, r.first_seen_at`;

/** A stored review with its app, as the Slack message about it is built (for the message's update after a reply). */
export async function reviewWithApp(reviewId: string): Promise<{ review: StoredReview; app: Pick<AppRow, 'store' | 'app_id' | 'title' | 'icon_url' | 'store_url'> } | undefined> {
  const db = await getDb();
  const r = await sql<StoredReview & { app_store: AppRow['store']; app_app_id: string; app_title: string; app_icon_url: string | null; app_store_url: string | null }>`
    select ${REVIEW_COLUMNS}, a.store as app_store, a.app_id as app_app_id, a.title as app_title, a.icon_url as app_icon_url,
           a.store_url as app_store_url
      from reviews r join apps a on a.key = r.app_key
     where r.id = ${reviewId}::bigint`.execute(db);
  const row = r.rows[0];
  if (!row) return undefined;
  const { app_store, app_app_id, app_title, app_icon_url, app_store_url, ...review } = row;
  return { review: { ...review, id: Number(review.id) }, app: { store: app_store, app_id: app_app_id, title: app_title, icon_url: app_icon_url, store_url: app_store_url } };
}

// ── the messages a Reply was clicked on, updated again when the reply is published ──────────────────────────────────

/**
 * Keeps where the review's message is in the channel (a click tells it; an incoming webhook never does), and the
 * click's response_url with its time (Slack takes message updates there for 30 minutes).
 */
export async function rememberReplyMessage(destinationId: string, reviewId: string, channelId: string, messageTs: string, responseUrl: string): Promise<void> {
  const db = await getDb();
  await sql`
    insert into slack_reply_messages (destination_id, review_id, channel_id, message_ts, response_url, response_url_at)
    values (${destinationId}, ${reviewId}::bigint, ${channelId}, ${messageTs}, ${responseUrl}, now())
    on conflict (destination_id, review_id) do update
       set channel_id = excluded.channel_id, message_ts = excluded.message_ts, response_url = excluded.response_url,
           response_url_at = excluded.response_url_at`.execute(db);
}

/** A response_url younger than this is used first (Slack's 30 minutes, less a margin for the call itself). */
const RESPONSE_URL_SECONDS = 29 * 60;

/** Records that the message now shows the reply published at `publishedAt` (it was updated some other way). */
export async function markPublishedShown(destinationId: string, reviewId: string, publishedAt: Date): Promise<void> {
  const db = await getDb();
  await sql`
    update slack_reply_messages set shown_published_at = ${publishedAt}, failures = 0, next_try_at = null
     where destination_id = ${destinationId} and review_id = ${reviewId}::bigint`.execute(db);
}

/** A message to update: where it is, the workspace's token, and the published reply it is to show. */
export type PublishedToShow = {
  destinationId: string;
  reviewId: string;
  channelId: string;
  messageTs: string;
  /** The click's response_url while Slack still takes updates there; null after. */
  responseUrl: string | null;
  botToken: string;
  failures: number;
  previous: Date | null;
  publishedAt: Date;
  text: string;
  by: string;
};

/**
 * Takes the messages whose review's reply (of the destination's organisation) was published since the message last
 * showed it: each is marked shown in the same statement, so two workers never take the same one.
 */
export async function takePublishedToShow(limit: number): Promise<PublishedToShow[]> {
  const db = await getDb();
  const r = await sql<{
    destination_id: string; review_id: string; channel_id: string; message_ts: string; response_url: string | null; bot_token_enc: string; failures: number;
    previous: Date | null; published_at: Date; text: string; by: string;
  }>`
    with due as (
      select m.destination_id, m.review_id, m.shown_published_at as previous, rp.published_at, rp.text,
             coalesce(u.display_name, u.name, u.email, rp.author_label) as by, w.bot_token_enc
        from slack_reply_messages m
        join destinations d on d.id = m.destination_id and d.status <> 'disabled'
        join slack_workspaces w on w.team_id = d.slack_team_id
        join replies rp on rp.org_id = d.org_id and rp.review_id = m.review_id
        left join users u on u.id = rp.author_user_id
       where rp.state = 'published' and rp.published_at is not null
         and (m.shown_published_at is null or m.shown_published_at < rp.published_at)
         and (m.next_try_at is null or m.next_try_at <= now())
       order by rp.published_at
       limit ${limit}
         for update of m skip locked
    )
    update slack_reply_messages m set shown_published_at = due.published_at
      from due
     where m.destination_id = due.destination_id and m.review_id = due.review_id
    returning m.destination_id, m.review_id::text as review_id, m.channel_id, m.message_ts, m.failures, due.previous, due.published_at,
              case when m.response_url_at > now() - ${RESPONSE_URL_SECONDS} * interval '1 second' then m.response_url end as response_url,
              due.text, due.by, due.bot_token_enc`.execute(db);
  return r.rows.map((x) => ({
    destinationId: x.destination_id,
    reviewId: x.review_id,
    channelId: x.channel_id,
    messageTs: x.message_ts,
    responseUrl: x.response_url,
    botToken: decryptSecret(x.bot_token_enc),
    failures: x.failures,
    previous: x.previous,
    publishedAt: x.published_at,
    text: x.text,
    by: x.by,
  }));
}

/** After an update Slack did not take but may later: shown as before, tried again after `afterSeconds`. */
export async function publishedShowFailed(m: Pick<PublishedToShow, 'destinationId' | 'reviewId' | 'previous'>, afterSeconds: number): Promise<void> {
  const db = await getDb();
  await sql`
    update slack_reply_messages set shown_published_at = ${m.previous}, failures = failures + 1,
           next_try_at = now() + ${afterSeconds} * interval '1 second'
     where destination_id = ${m.destinationId} and review_id = ${m.reviewId}::bigint`.execute(db);
}

/** After an update Slack took (or refused for good): the next reply's publication starts with a clean slate. */
export async function publishedShowDone(m: Pick<PublishedToShow, 'destinationId' | 'reviewId'>): Promise<void> {
  const db = await getDb();
  await sql`update slack_reply_messages set failures = 0, next_try_at = null where destination_id = ${m.destinationId} and review_id = ${m.reviewId}::bigint`.execute(db);
}

// ── Slack users linked to ARB members (server/slack/links.ts) ───────────────────────────────────────────────────────

/** The destination's organisation, when it is a Slack channel of workspace `teamId` (what a link token names). */
export async function slackDestinationOrg(destinationId: string, teamId: string): Promise<string | null> {
  const db = await getDb();
  const r = await sql<{ org_id: string | null }>`
    select org_id from destinations where id = ${destinationId} and platform = 'slack' and slack_team_id = ${teamId}`.execute(db);
  return r.rows[0]?.org_id ?? null;
}

/**
 * Stores (team, Slack user) → member, once per link token: false when the token's nonce was used already. The nonce is
 * kept until the token expires; expired ones are dropped here, so the table stays as small as the links in flight.
 */
export async function saveSlackUserLink(link: { teamId: string; slackUserId: string; userId: string; orgId: string; nonce: string; nonceExpiresAt: Date }): Promise<boolean> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    await sql`delete from slack_link_uses where expires_at < now()`.execute(trx);
    const used = await sql`insert into slack_link_uses (nonce, expires_at) values (${link.nonce}, ${link.nonceExpiresAt})
                             on conflict (nonce) do nothing returning nonce`.execute(trx);
    if (used.rows.length === 0) return false;
    await sql`
      insert into slack_user_links (team_id, slack_user_id, user_id, org_id)
      values (${link.teamId}, ${link.slackUserId}, ${link.userId}, ${link.orgId})
      on conflict (team_id, slack_user_id) do update
         set user_id = excluded.user_id, org_id = excluded.org_id, created_at = now()`.execute(trx);
    return true;
  });
}

/**
 * The ARB member this Slack user is linked to, while they are still in the organisation they linked from (the
 * trigger of migration 0031 deletes a link when the member's organisation changes; checked here too).
 */
export async function linkedMember(teamId: string, slackUserId: string): Promise<(OrgMember & { orgId: string }) | undefined> {
  const db = await getDb();
  const r = await sql<OrgMember & { orgId: string }>`
    select u.id as "userId", u.email, coalesce(u.display_name, u.name) as name, u.org_id as "orgId"
      from slack_user_links l join users u on u.id = l.user_id and u.org_id = l.org_id
     where l.team_id = ${teamId} and l.slack_user_id = ${slackUserId}`.execute(db);
  return r.rows[0];
}
