/**
 * What server/db/types.ts cannot learn from the schema. That file is generated from the migrated database
 * (`npm run db-types`, scripts/db-types.ts; tests/api/dbTypes.test.ts fails while it is stale): the database says
 * `text`, this module says which words a column holds, and why a column is there.
 *
 * - a column whose values the code narrows gets an entry in COLUMN_TYPES naming a type of this module or of shared/
 *   (null and a default are added from the schema: `'users.role': 'OrgRole'` becomes `Generated<OrgRole>`);
 * - COLUMN_NOTES and TABLE_NOTES become the generated interfaces' comments;
 * - TYPE_MAPPING gives the PostgreSQL types the drivers read otherwise than kysely-codegen assumes a type of their own.
 *
 * The generated file re-exports every type named here, so code imports column types from server/db/types.ts only.
 */
import type { ColumnType } from 'kysely';
import type { OrgRole } from '@/shared/orgRoles';

// The PostgreSQL types the drivers read otherwise than kysely-codegen's defaults assume (TYPE_MAPPING below).

/** bigint: read as a JS number on both drivers (server/db/client.ts sets node-postgres' parser; PGlite does so itself). */
export type BigintNumber = ColumnType<number, number | string | bigint, number | string | bigint>;

/**
 * jsonb: written as JSON.stringify(value) (node-postgres would write a JS array as a PostgreSQL array), read as
 * whatever the reader parses it to (filters, alert details, citations… each has its own shape in its module).
 */
export type JsonText = ColumnType<unknown, string, string>;

/** date: a UTC day written as 'YYYY-MM-DD'; read as a Date or a string depending on the driver. */
export type CalendarDay = ColumnType<Date | string, string, string>;

/** PostgreSQL type → the type of this module its columns get. */
export const TYPE_MAPPING: Record<string, string> = { int8: 'BigintNumber', jsonb: 'JsonText', date: 'CalendarDay' };

// The words a column holds (COLUMN_TYPES below).

/** idle: no active destination, e-mail digest or owner key needs it, so it is not polled (sourceDemand.ts). */
export type SourceStatus = 'active' | 'paused' | 'disabled' | 'idle';

/** pending_confirmation: an e-mail destination whose mailbox has not clicked the confirmation link yet. */
export type DestinationStatus = 'active' | 'paused' | 'disabled' | 'pending_confirmation';

/**
 * Who or what stopped a destination: its owner; the recipient's unsubscribe; the receiver refusing it for good (gone,
 * redirect, private address); the receiver answering only 429; an anonymous connection's time running out; the plan.
 */
export type DisabledCause = 'owner' | 'unsubscribed' | 'receiver_refused' | 'rate_limited' | 'anonymous_expired' | 'plan_limit';

export type DeliveryKind = 'new' | 'updated' | 'welcome' | 'alert' | 'summary';

/** parked: interrupted while sending PARK_AFTER_INTERRUPTIONS times in a row, not sent again (deliveryWorker.ts). */
export type DeliveryStatus = 'pending' | 'sending' | 'retry' | 'delivered' | 'failed' | 'parked';

export type SpikeScopeKind = 'app' | 'country' | 'version' | 'topic';

/** An e-mail subscription's digest or weekly summary: offered by a link, active once the mailbox confirmed it. */
export type MailOptIn = 'offered' | 'active' | 'off';

export type EmailRequestKind = 'recent_reviews' | 'summary' | 'confirm_recent_reviews' | 'confirm_summary' | 'weekly_summary';

export type EmailRequestStatus = 'pending' | 'sent' | 'failed' | 'cancelled';

/** 0041: awaiting_approval (a rule's draft waiting for a person; never due), rejected (a person said no; kept). */
export type ReplyState = 'draft' | 'sending' | 'pending_publish' | 'published' | 'failed' | 'awaiting_approval' | 'rejected';

/** 0041: how a rule's reply goes out: sent at once, or waiting for a person's approval. */
export type ReplyRuleMode = 'auto' | 'approval';

/** 0041: what wrote a rule's draft: the template filled in, or the language model with the template as its guide. */
export type ReplyDraftedBy = 'template' | 'model';

/** 0041: why automatic replies of an app are paused: the store refused its credentials, or its quota is spent. */
export type ReplyPauseKind = 'credentials' | 'quota';

/** 0041: a draft's Slack approval message: to post (an outbox), posted, or given up. */
export type ApprovalMessageState = 'pending' | 'posted' | 'failed';

/** A Zendesk ticket of a review: waiting to be created (the queue), created, or given up with the reason. */
export type ZendeskTicketState = 'queued' | 'created' | 'failed';

/** How a summary was written: picked from the reviews, or by the language model. */
export type SummaryMethod = 'extractive' | 'llm';

export type SummaryStatus = 'pending' | 'ready' | 'failed';

export type AskArbSpeaker = 'user' | 'assistant';

/** Who may be invited: anyone but an owner (ownership is handed over, never invited). */
export type InvitedRole = Exclude<OrgRole, 'owner'>;

/** The types COLUMN_TYPES names that live in shared/ (both sides use them), and their modules; the others are here. */
export const SHARED_COLUMN_TYPES: Record<string, string> = { OrgRole: '@/shared/orgRoles', AskMethod: '@/shared/askArb' };

/** `table.column` → the type of its values (without null or a default: those come from the schema). */
export const COLUMN_TYPES: Record<string, string> = {
  'users.role': 'OrgRole',
  'org_invitations.role': 'InvitedRole',
  'monitored_sources.status': 'SourceStatus',
  'destinations.status': 'DestinationStatus',
  'destinations.disabled_cause': 'DisabledCause',
  'spike_episodes.scope_kind': 'SpikeScopeKind',
  'deliveries.kind': 'DeliveryKind',
  'deliveries.status': 'DeliveryStatus',
  'email_subscriptions.digest_status': 'MailOptIn',
  'email_subscriptions.weekly_status': 'MailOptIn',
  'email_requests.kind': 'EmailRequestKind',
  'email_requests.status': 'EmailRequestStatus',
  'replies.state': 'ReplyState',
  'replies.rule_mode': 'ReplyRuleMode',
  'replies.drafted_by': 'ReplyDraftedBy',
  'reply_pauses.kind': 'ReplyPauseKind',
  'reply_approval_messages.state': 'ApprovalMessageState',
  'zendesk_tickets.state': 'ZendeskTicketState',
  'review_summaries.method': 'SummaryMethod',
  'review_summaries.status': 'SummaryStatus',
  'weekly_summaries.method': 'SummaryMethod',
  'ask_arb_messages.role': 'AskArbSpeaker',
  'ask_arb_messages.method': 'AskMethod',
};

/** What a table is for, where it is not plain from its name (the migration that made it, the module that owns it). */
export const TABLE_NOTES: Record<string, string> = {
  app_review_stats: 'Per-app review counters, kept by triggers on reviews (migration 0018): read them, never write them.',
  app_review_days: '0038: per app and UTC day (of updated_at), review counters for the overview (server/overview), kept by triggers on reviews: read them, never write them.',
  ask_arb_chats: "0026: Ask ARB conversations (server/askArb/chatData.ts): a visitor's (org_id null, read by its id) or an organisation's.",
  org_usage_months: 'What an organisation used of its monthly allowances, per calendar month (UTC).',
  refused_subscriptions: 'A second live subscription of an organisation that already pays: kept out, cancelled through Stripe, owners told once.',
  review_sentiment_queue: 'Reviews waiting for the language model to re-read their sentiment.',
  review_summaries: '0024: review summaries asked for in the dashboard (server/insights/summaries.ts).',
  review_translations: 'A review translated to a language (as of review_version).',
  reply_rule_days: '0041: automatic replies rules drafted per organisation, app and UTC day, across rules (their daily_cap; server/replies/ruleData.ts).',
  reply_pauses: "0041: apps whose automatic replies are paused because the store refused a reply (credentials, quota; server/replies/pauses.ts).",
  reply_approval_messages: '0041: rule drafts posted to a Slack channel for approval, and where that message is (server/slack/approvalMessages.ts).',
  rules: "0040: an organisation's rules, in `position` order: conditions and actions as the API takes them (server/rules).",
  rule_firings: '0040: a rule that matched a review, once per (rule, review, review version), with what its actions did (server/rules).',
  rule_queue: '0040: reviews stored or edited while a rule could apply, waiting for the rules job (filled by triggers on reviews).',
  slack_link_uses: 'The nonce of each used "Link your Slack account" token, until the token expires: a link works once.',
  slack_reply_messages: '0028: the Slack messages a Reply was clicked on (server/slack/README.md).',
  slack_events_seen: '0043: the Slack Events API deliveries already taken (event_id), so a mention is answered once.',
  slack_user_links: "0031: a Slack user who proved, signed in to ARB, that they are this member; removed when the member's org_id changes (server/slack/links.ts).",
  slack_workspaces: '0021: a Slack workspace that installed ARB with "Add to Slack" (server/slack).',
  spike_episodes: '0023: a spike of 1–2★ reviews or a drop of the average rating, per app and scope (server/alerts).',
  stripe_events: 'Stripe webhook events applied (each once).',
  store_rating_snapshots: "0036: the store's own rating of an app, one row per storefront and UTC day (server/storeRatings).",
  weekly_summaries: '0027: the weekly summary of an app, one per UTC week (server/insights/weekly.ts); what every recipient is sent.',
};

/** What a column holds, where it is not plain from its name and type. */
export const COLUMN_NOTES: Record<string, string> = {
  'orgs.plan_status': "0015: the subscription's state as Stripe last reported it (active, trialing, past_due, canceled, unpaid…).",
  'orgs.past_due_since': "0019: when the subscription's payment started failing (the grace period runs from here); null when paid.",
  'orgs.grace_notice': "0019: the last grace-period e-mail sent to the owner: 'started', 'reminder' or 'ended'.",
  'users.role': 'owner > admin > member (shared/orgRoles.ts says who may do what).',
  'handoff_codes.nonce_hash': '0030: SHA-256 of the nonce cookie of the browser that asked for the code (null: older codes, refused).',
  'apps.key': '`${store}__${app_id}`',
  'apps.write_seq': "0029: bumped by every write to the app's reviews and subscriptions, under its row lock (monitor/apps.ts lockApp).",
  'monitored_sources.format_error_at': 'Last poll that failed on a payload we could not read (0008); current while newer than last_success_at.',
  'reviews.search_vector': "0012: the review's words for text search ('simple' configuration), computed by the database.",
  'reviews.replied': '0012: reply_text is not null, computed by the database, so the replied filter can be read from an index.',
  'destinations.filters': 'DestinationFilters (server/monitor/filters.ts) as jsonb: write JSON.stringify(filters).',
  'destinations.disabled_cause': 'Why it is paused or disabled (null while active or pending): what code compares; status_reason is for people.',
  'destinations.delivered_pruned': '0035: delivered messages the retention deleted (server/monitor/housekeeping.ts), still counted on the status.',
  'destinations.expires_at': 'Anonymous chat connections: paused after this time unless claimed (server/monitor/anonymous.ts).',
  'destinations.translate_to': 'Language its reviews should be translated into (e.g. "en"); each review message carries its translation.',
  'destinations.signing_secret_enc': 'Webhook destinations: the `whsec_…` signing secret, encrypted (server/crypto.ts); null for other platforms.',
  'destinations.previous_signing_secret_enc': '0034: the secret the last rotation replaced; it signs next to the new one until previous_secret_expires_at.',
  'destinations.slack_team_id': '0021: the Slack workspace this destination was installed from ("Add to Slack"); null for pasted webhooks.',
  'destinations.slack_channel_id': '0043: the Slack channel "Add to Slack" posts to (asking ARB in that channel reads its apps); null when not known.',
  'destinations.spike_alerts': '0023: whether it receives spike alerts (server/alerts) for its apps.',
  'destinations.weekly_summaries': '0027: whether it receives the weekly summary of its apps (server/insights/weekly.ts; plan feature summaries).',
  'spike_episodes.details': 'AlertDetails (server/alerts/details.ts) as jsonb: write JSON.stringify(details).',
  'deliveries.alert_episode_id': "0023: for kind 'alert', the spike episode it announces.",
  'deliveries.weekly_summary_id': "0027: for kind 'summary', the weekly summary it carries.",
  'deliveries.interrupted_sends': '0035: attempts in a row before the latest one that ended with no outcome recorded (deliveryMarks.ts).',
  'deliveries.webhook_id': "0034: the Standard Webhooks `webhook-id` ('msg_' + 32 hex digits), set by the INSERT; null on older rows (messageIds.ts).",
  'email_recipients.generation': 'Moves on with every unsubscribe: e-mail links carry the generation they were made in.',
  'email_subscriptions.weekly_status': '0027: the weekly summary of the app by e-mail, turned on from a link the mailbox received.',
  'email_requests.weekly_summary_id': "0027: for kind 'weekly_summary', the summary it sends.",
  'org_invitations.mailed_at': '0033: when its e-mail went out; null when none did (the address had unsubscribed).',
  'audit_log.details': 'Facts of the change (old and new name, role…) as jsonb: write JSON.stringify(details).',
  'org_apps.countries': 'App Store storefronts watched for the organisation; empty for Google Play apps.',
  'org_apps.credentials_kind': "0014: the organisation's store credentials for the app ('app_store_connect' | 'google_play'), sealed.",
  'org_apps.credentials_label': "Not secret: the key id, or the service account's address.",
  'org_apps.plan_paused_at': '0019: paused because the plan allows fewer apps: not polled for the organisation, nothing delivered from it.',
  'org_apps.reply_tone': "0022: the tone \"Draft a reply\" writes in for this app ('friendly' | 'formal' | 'brief').",
  'api_keys.prefix': "The key's first characters (`arb_` + 6), shown in the list.",
  'api_keys.key_hash': 'Keyed hash of the whole key (server/apiKeys); the key itself is never stored.',
  'org_usage_months.month': "'YYYY-MM', UTC.",
  'org_usage_months.llm_tokens': 'Language-model tokens (prompt + completion), against LLM_MONTHLY_TOKENS_PER_ORG.',
  'replies.failure': 'Why the store refused it, in plain words (state failed).',
  'replies.author_label': 'The person\'s e-mail, or "API key <name>".',
  'replies.review_updated_at': 'The review\'s content_updated_at when the reply was sent ("edited after reply" when it moves on).',
  'review_summaries.from_day': "UTC days, both included ('YYYY-MM-DD' in, a Date or string out depending on the driver).",
  'weekly_summaries.week_start': "The Monday (UTC) the week began, 'YYYY-MM-DD'.",
  'ask_arb_chats.app_key': "The app a visitor's chat is about; null for an organisation's chat (all its apps).",
  'ask_arb_chats.filters': "The last question's filters (AskFilters), inherited by a follow-up.",
  'ask_arb_chats.intent': 'The last question\'s intent (AskIntent) and topic, for a follow-up such as "and in Germany?".',
  'ask_arb_messages.seq': 'Order within the chat.',
  'ask_arb_messages.citations': 'AskCitation[] as shown with the answer.',
  'store_rating_snapshots.country': 'App Store: the storefront looked up; Google Play: the source\'s country (the details page gives one worldwide score).',
  'store_rating_snapshots.ratings_count': 'All ratings the store counts, with or without text; null when the store shows none.',
  'store_rating_snapshots.histogram': 'Google Play only: {"1":n,…,"5":n} as jsonb (write JSON.stringify); null for the App Store.',
};
