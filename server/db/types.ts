/**
 * Table types for Kysely. Keep in step with migrations/. Each later migration adds its tables to Database below.
 */
import type { ColumnType, Generated as KyselyGenerated } from 'kysely';

/**
 * Kysely's Generated<ColumnType<…>> nests one ColumnType in another, so `created_at: Generated<Timestamp>` could not
 * be compared with a Date in a WHERE. This Generated unwraps a ColumnType first (and keeps unions whole).
 */
type Generated<T> = [T] extends [ColumnType<infer S, infer I, infer U>] ? ColumnType<S, I | undefined, U> : KyselyGenerated<T>;

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface OrgsTable {
  id: string;
  name: string;
  plan: Generated<string>;
  created_at: Generated<Timestamp>;
  /** 0015: the subscription's state as Stripe last reported it (active, trialing, past_due, canceled, unpaid…). */
  plan_status: Generated<string>;
  current_period_end: NullableTimestamp;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  /** 0019: when the subscription's payment started failing (the grace period runs from here); null when paid. */
  past_due_since: NullableTimestamp;
  /** 0019: the last grace-period e-mail sent to the owner: 'started', 'reminder' or 'ended'. */
  grace_notice: string | null;
}

/** owner > admin > member (shared/orgRoles.ts says who may do what). */
import type { OrgRole } from '@/shared/orgRoles';
export type { OrgRole };

export interface UsersTable {
  id: string;
  email: string;
  name: string | null;
  display_name: string | null;
  org_id: string;
  role: Generated<OrgRole>;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  referral: string | null;
  created_at: Generated<Timestamp>;
  last_sign_in_at: NullableTimestamp;
}

export interface LoginCodesTable {
  id: Generated<number>;
  email: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
  created_at: Generated<Timestamp>;
  requester_hash: string | null;
}

export interface AuthSessionsTable {
  id: string;
  user_id: string;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  last_renewed_at: NullableTimestamp;
}

export interface HandoffCodesTable {
  code_hash: string;
  session_id: string;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
  created_at: Generated<Timestamp>;
  /** 0030: SHA-256 of the nonce cookie of the browser that asked for the code (null: older codes, refused). */
  nonce_hash: string | null;
}

export interface SignInTokensTable {
  token_hash: string;
  email: string;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
  created_at: Generated<Timestamp>;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  window_ends_at: Timestamp;
}

export interface AppEventsTable {
  id: Generated<number>;
  event: string;
  app_id: string;
  app_store: string;
  user_id: string | null;
  created_at: Generated<Timestamp>;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  email: string;
  message: string;
  ip: string | null;
  emailed_at: NullableTimestamp;
  created_at: Generated<Timestamp>;
}

// ── 0002 monitoring engine (server/monitor/README.md) ──────────────────────────────────────────────────────────────
type Json = ColumnType<unknown, string, string>;

export interface AppsTable {
  /** `${store}__${app_id}` */
  key: string;
  store: string;
  app_id: string;
  title: string;
  icon_url: string | null;
  store_url: string | null;
  developer: string | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  /** 0029: bumped by every write to the app's reviews and subscriptions, under its row lock (monitor/apps.ts lockApp). */
  write_seq: Generated<string>;
}

export interface MonitoredSourcesTable {
  id: Generated<number>;
  app_key: string;
  kind: string;
  country: Generated<string>;
  language: Generated<string>;
  credentials_enc: string | null;
  /** idle: no active destination, e-mail digest or owner key needs it, so it is not polled (sourceDemand.ts). */
  status: Generated<'active' | 'paused' | 'disabled' | 'idle'>;
  status_reason: string | null;
  next_poll_at: Generated<Timestamp>;
  watermark: NullableTimestamp;
  failure_count: Generated<number>;
  last_error: string | null;
  last_polled_at: NullableTimestamp;
  last_success_at: NullableTimestamp;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  created_at: Generated<Timestamp>;
  /** Last poll that failed on a payload we could not read (0008); current while newer than last_success_at. */
  format_error_at: NullableTimestamp;
}

export interface ReviewsTable {
  id: Generated<number>;
  app_key: string;
  store: string;
  store_review_id: string;
  country: string | null;
  language: string | null;
  author_name: string;
  title: string | null;
  body: string;
  rating: number;
  app_version: string | null;
  written_at: NullableTimestamp;
  updated_at: Timestamp;
  reply_text: string | null;
  reply_updated_at: NullableTimestamp;
  permalink: string | null;
  version: Generated<number>;
  sentiment: string | null;
  sentiment_score: number | null;
  text_language: string | null;
  sentiment_method: string | null;
  first_seen_at: Generated<Timestamp>;
  last_changed_at: Generated<Timestamp>;
}

export interface ReviewVersionsTable {
  id: Generated<number>;
  review_id: number;
  version: number;
  rating: number;
  title: string | null;
  body: string;
  updated_at: Timestamp;
  recorded_at: Generated<Timestamp>;
}

/**
 * Who or what stopped a destination: its owner; the recipient's unsubscribe; the receiver refusing it for good (gone,
 * redirect, private address); the receiver answering only 429; an anonymous connection's time running out.
 */
export type DisabledCause = 'owner' | 'unsubscribed' | 'receiver_refused' | 'rate_limited' | 'anonymous_expired' | 'plan_limit';

export interface DestinationsTable {
  id: string;
  org_id: string | null;
  platform: string;
  target_enc: string;
  target_hash: string;
  target_hint: string;
  label: string | null;
  /** DestinationFilters (server/monitor/filters.ts) as jsonb: write JSON.stringify(filters). */
  filters: Json;
  /** pending_confirmation: an e-mail destination whose mailbox has not clicked the confirmation link yet. */
  status: Generated<'active' | 'paused' | 'disabled' | 'pending_confirmation'>;
  status_reason: string | null;
  /** Why it is paused or disabled (null while active or pending): what code compares; status_reason is for people. */
  disabled_cause: DisabledCause | null;
  warning: string | null;
  confirmation_sent_at: NullableTimestamp;
  confirmed_at: NullableTimestamp;
  welcome_count: Generated<number>;
  backfill: Generated<boolean>;
  created_by_email: string | null;
  last_delivery_at: NullableTimestamp;
  /** 0035: delivered messages the retention deleted (server/monitor/housekeeping.ts), still counted on the status. */
  delivered_pruned: Generated<string | number>;
  last_error: string | null;
  last_error_at: NullableTimestamp;
  next_send_at: Generated<Timestamp>;
  pace_tat: NullableTimestamp;
  consecutive_failures: Generated<number>;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  /** Anonymous chat connections: paused after this time unless claimed (server/monitor/anonymous.ts). */
  expires_at: NullableTimestamp;
  /** Language its reviews should be translated into (e.g. "en"); each review message carries its translation. */
  translate_to: string | null;
  /** Webhook destinations: the `whsec_…` signing secret, encrypted (server/crypto.ts); null for other platforms. */
  signing_secret_enc: string | null;
  /** 0034: the secret the last rotation replaced; it signs next to the new one until previous_secret_expires_at. */
  previous_signing_secret_enc: string | null;
  previous_secret_expires_at: NullableTimestamp;
  /** 0021: the Slack workspace this destination was installed from ("Add to Slack"); null for pasted webhooks. */
  slack_team_id: string | null;
  /** 0023: whether it receives spike alerts (server/alerts) for its apps. */
  spike_alerts: Generated<boolean>;
  /** 0027: whether it receives the weekly summary of its apps (server/insights/weekly.ts; plan feature summaries). */
  weekly_summaries: Generated<boolean>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface DestinationAppsTable {
  destination_id: string;
  app_key: string;
  welcomed_at: NullableTimestamp;
  created_at: Generated<Timestamp>;
}

/** 0023: a spike of 1–2★ reviews or a drop of the average rating, per app and scope (server/alerts). */
export interface SpikeEpisodesTable {
  id: Generated<number>;
  app_key: string;
  scope_kind: 'app' | 'country' | 'version';
  scope_value: Generated<string>;
  opened_at: Generated<Timestamp>;
  since: Timestamp;
  closed_at: NullableTimestamp;
  /** AlertDetails (server/alerts/details.ts) as jsonb: write JSON.stringify(details). */
  details: Json;
}

export interface DeliveriesTable {
  id: Generated<number>;
  destination_id: string;
  review_id: number | null;
  app_key: string;
  kind: 'new' | 'updated' | 'welcome' | 'alert' | 'summary';
  /** 0023: for kind 'alert', the spike episode it announces. */
  alert_episode_id: number | null;
  /** 0027: for kind 'summary', the weekly summary it carries. */
  weekly_summary_id: Generated<number | null>;
  review_version: Generated<number>;
  /** 0035: 'parked' — interrupted while sending PARK_AFTER_INTERRUPTIONS times in a row, not sent again (deliveryWorker.ts). */
  status: Generated<'pending' | 'sending' | 'retry' | 'delivered' | 'failed' | 'parked'>;
  attempts: Generated<number>;
  /** 0035: attempts in a row before the latest one that ended with no outcome recorded (deliveryMarks.ts). */
  interrupted_sends: Generated<number>;
  /** 0034: the Standard Webhooks `webhook-id` ('msg_' + 32 hex digits), set by the INSERT; null on older rows (messageIds.ts). */
  webhook_id: Generated<string | null>;
  next_attempt_at: Generated<Timestamp>;
  first_attempt_at: NullableTimestamp;
  last_attempt_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  last_status: number | null;
  last_error: string | null;
  worker: string | null;
  created_at: Generated<Timestamp>;
}

// ── 0003 reviews by e-mail (server/subscriptions/README.md) ───────────────────────────────────────────────────────
export interface EmailRecipientsTable {
  email: string;
  unsubscribed_at: NullableTimestamp;
  next_digest_at: NullableTimestamp;
  last_digest_at: NullableTimestamp;
  /** Moves on with every unsubscribe: e-mail links carry the generation they were made in. */
  generation: Generated<number>;
  created_at: Generated<Timestamp>;
}

export interface EmailSubscriptionsTable {
  id: string;
  email: string;
  app_key: string;
  country: Generated<string>;
  digest_status: Generated<'offered' | 'active' | 'off'>;
  digest_confirmed_at: NullableTimestamp;
  digest_cursor: NullableTimestamp;
  /** 0027: the weekly summary of the app by e-mail, turned on from a link the mailbox received. */
  weekly_status: Generated<'off' | 'offered' | 'active'>;
  weekly_confirmed_at: NullableTimestamp;
  created_ip: string | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export type EmailRequestKind = 'recent_reviews' | 'summary' | 'confirm_recent_reviews' | 'confirm_summary' | 'weekly_summary';

export interface EmailRequestsTable {
  id: Generated<number>;
  subscription_id: string;
  kind: EmailRequestKind;
  /** 0027: for kind 'weekly_summary', the summary it sends. */
  weekly_summary_id: Generated<number | null>;
  status: Generated<'pending' | 'sent' | 'failed' | 'cancelled'>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Timestamp>;
  lease_until: NullableTimestamp;
  last_error: string | null;
  sent_at: NullableTimestamp;
  created_at: Generated<Timestamp>;
}

export interface JobRunsTable {
  name: string;
  last_started_at: NullableTimestamp;
  last_finished_at: NullableTimestamp;
  running_until: NullableTimestamp;
  run_by: string | null;
  runs: Generated<string>;
}

export interface KeyFingerprintsTable {
  name: string;
  fingerprint: string;
  created_at: Generated<Timestamp>;
}

export interface OrgInvitationsTable {
  id: string;
  org_id: string;
  email: string;
  role: Exclude<OrgRole, 'owner'>;
  invited_by: string | null;
  token_hash: string;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** 0033: when its e-mail went out; null when none did (the address had unsubscribed). */
  mailed_at: NullableTimestamp;
}

export interface AuditLogTable {
  id: Generated<string>;
  org_id: string;
  actor_user_id: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  /** Facts of the change (old and new name, role…) as jsonb: write JSON.stringify(details). */
  details: Generated<Json>;
  created_at: Generated<Timestamp>;
}

// ── 0011 organisation apps ──────────────────────────────────────────────────────────────────────────────────────────
export interface OrgAppsTable {
  org_id: string;
  app_key: string;
  /** App Store storefronts watched for the organisation; empty for Google Play apps. */
  countries: ColumnType<string[], string[] | undefined, string[]>;
  added_by: string | null;
  added_by_email: string | null;
  created_at: Generated<Timestamp>;
  /** 0014: the organisation's store credentials for the app ('app_store_connect' | 'google_play'), sealed. */
  credentials_kind: ColumnType<string | null, string | null | undefined, string | null>;
  credentials_enc: ColumnType<string | null, string | null | undefined, string | null>;
  /** Not secret: the key id, or the service account's address. */
  credentials_label: ColumnType<string | null, string | null | undefined, string | null>;
  credentials_checked_at: NullableTimestamp;
  /** 0019: paused because the plan allows fewer apps: not polled for the organisation, nothing delivered from it. */
  plan_paused_at: NullableTimestamp;
  /** 0022: the tone "Draft a reply" writes in for this app ('friendly' | 'formal' | 'brief'). */
  reply_tone: ColumnType<string, string | undefined, string>;
}

// ── 0013 API keys ──────────────────────────────────────────────────────────────────────────────────────────────────
export interface ApiKeysTable {
  id: string;
  org_id: string;
  name: string;
  /** The key's first characters (`arb_` + 6), shown in the list. */
  prefix: string;
  /** Keyed hash of the whole key (server/apiKeys); the key itself is never stored. */
  key_hash: string;
  created_by: string | null;
  created_at: Generated<Timestamp>;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

// ── 0015 plans ─────────────────────────────────────────────────────────────────────────────────────────────────────
/** What an organisation used of its monthly allowances, per calendar month (UTC). */
export interface OrgUsageMonthsTable {
  org_id: string;
  /** 'YYYY-MM', UTC. */
  month: string;
  ask_arb_questions: Generated<number>;
  api_calls: Generated<number>;
  /** Language-model tokens (prompt + completion), against LLM_MONTHLY_TOKENS_PER_ORG. */
  llm_tokens: Generated<number>;
  updated_at: Generated<Timestamp>;
}

/** 0021: a Slack workspace that installed ARB with "Add to Slack" (server/slack). */
export interface SlackWorkspacesTable {
  team_id: string;
  team_name: string | null;
  bot_token_enc: string;
  bot_user_id: string | null;
  scopes: Generated<string>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

// ── 0028 the Slack messages a Reply was clicked on (server/slack/README.md) ──────────────────────────────────────────
export interface SlackReplyMessagesTable {
  destination_id: string;
  review_id: number;
  channel_id: string;
  message_ts: string;
  response_url: string | null;
  response_url_at: Timestamp | null;
  shown_published_at: Timestamp | null;
  failures: Generated<number>;
  next_try_at: Timestamp | null;
  created_at: Generated<Timestamp>;
}

// ── 0031 Slack users linked to ARB members (server/slack/links.ts) ────────────────────────────────────────────────────
/** A Slack user who proved, signed in to ARB, that they are this member; removed when the member's org_id changes. */
export interface SlackUserLinksTable {
  team_id: string;
  slack_user_id: string;
  user_id: string;
  org_id: string;
  created_at: Generated<Timestamp>;
}

/** The nonce of each used "Link your Slack account" token, until the token expires: a link works once. */
export interface SlackLinkUsesTable {
  nonce: string;
  expires_at: Timestamp;
}

// ── 0017 replies (server/replies/README.md) ─────────────────────────────────────────────────────────────────────────
export type ReplyState = 'draft' | 'sending' | 'pending_publish' | 'published' | 'failed';

export interface RepliesTable {
  id: string;
  org_id: string;
  review_id: number;
  app_key: string;
  text: string;
  state: ReplyState;
  store_response_id: string | null;
  /** Why the store refused it, in plain words (state failed). */
  failure: string | null;
  author_user_id: string | null;
  /** The person's e-mail, or "API key <name>". */
  author_label: string;
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  lease_until: NullableTimestamp;
  /** The review's content_updated_at when the reply was sent ("edited after reply" when it moves on). */
  review_updated_at: Timestamp;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  sent_at: NullableTimestamp;
  published_at: NullableTimestamp;
}

export interface ReplyTemplatesTable {
  id: string;
  org_id: string;
  app_key: string;
  name: string;
  body: string;
  created_by: string | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface StoreAllowancesTable {
  key: string;
  remaining: number;
  resets_at: Timestamp;
  updated_at: Generated<Timestamp>;
}

// ── 0019 Stripe sync ───────────────────────────────────────────────────────────────────────────────────────────────
/** Stripe webhook events applied (each once). */
export interface StripeEventsTable {
  id: string;
  type: string;
  org_id: string | null;
  processed_at: Generated<Timestamp>;
}

// ── 0032 refused subscriptions ─────────────────────────────────────────────────────────────────────────────────────
/** A second live subscription of an organisation that already pays: kept out, cancelled through Stripe, owners told once. */
export interface RefusedSubscriptionsTable {
  subscription_id: string;
  org_id: string;
  kept_subscription_id: string;
  plan: string | null;
  created_at: Generated<Timestamp>;
  cancelled_at: NullableTimestamp;
  owners_told_at: NullableTimestamp;
}

// ── 0020 review enrichment ─────────────────────────────────────────────────────────────────────────────────────────
/** Reviews waiting for the language model to re-read their sentiment. */
export interface ReviewSentimentQueueTable {
  review_id: number;
  queued_at: Generated<Timestamp>;
  attempts: Generated<number>;
}

/** A review translated to a language (as of review_version). */
export interface ReviewTranslationsTable {
  review_id: number;
  language: string;
  review_version: number;
  title: string | null;
  body: string;
  provider: string;
  created_at: Generated<Timestamp>;
}

export interface Database {
  orgs: OrgsTable;
  users: UsersTable;
  login_codes: LoginCodesTable;
  sign_in_tokens: SignInTokensTable;
  auth_sessions: AuthSessionsTable;
  handoff_codes: HandoffCodesTable;
  rate_limits: RateLimitsTable;
  app_events: AppEventsTable;
  contact_messages: ContactMessagesTable;
  apps: AppsTable;
  monitored_sources: MonitoredSourcesTable;
  reviews: ReviewsTable;
  review_versions: ReviewVersionsTable;
  destinations: DestinationsTable;
  destination_apps: DestinationAppsTable;
  deliveries: DeliveriesTable;
  spike_episodes: SpikeEpisodesTable;
  email_recipients: EmailRecipientsTable;
  email_subscriptions: EmailSubscriptionsTable;
  email_requests: EmailRequestsTable;
  job_runs: JobRunsTable;
  key_fingerprints: KeyFingerprintsTable;
  org_invitations: OrgInvitationsTable;
  audit_log: AuditLogTable;
  org_apps: OrgAppsTable;
  api_keys: ApiKeysTable;
  org_usage_months: OrgUsageMonthsTable;
  slack_workspaces: SlackWorkspacesTable;
  slack_reply_messages: SlackReplyMessagesTable;
  slack_user_links: SlackUserLinksTable;
  slack_link_uses: SlackLinkUsesTable;
  replies: RepliesTable;
  reply_templates: ReplyTemplatesTable;
  store_allowances: StoreAllowancesTable;
  app_review_stats: AppReviewStatsTable;
  stripe_events: StripeEventsTable;
  refused_subscriptions: RefusedSubscriptionsTable;
  review_sentiment_queue: ReviewSentimentQueueTable;
  review_translations: ReviewTranslationsTable;
  review_summaries: ReviewSummariesTable;
  weekly_summaries: WeeklySummariesTable;
  ask_arb_chats: AskArbChatsTable;
  ask_arb_messages: AskArbMessagesTable;
}

/** Per-app review counters, kept by triggers on reviews (migration 0018): read them, never write them. */
export interface AppReviewStatsTable {
  app_key: string;
  review_count: string | number;
  rating_sum: string | number;
}

/** 0024: review summaries asked for in the dashboard (server/insights/summaries.ts). */
export interface ReviewSummariesTable {
  id: string;
  org_id: string;
  app_key: string;
  /** UTC days, both included ('YYYY-MM-DD' in, a Date or string out depending on the driver). */
  from_day: ColumnType<Date | string, string, string>;
  to_day: ColumnType<Date | string, string, string>;
  method: 'extractive' | 'llm';
  status: 'pending' | 'ready' | 'failed';
  text: Generated<string>;
  content: ColumnType<unknown, string, string>;
  citations: Generated<string[]>;
  note: string | null;
  requested_by: string | null;
  created_at: Generated<Timestamp>;
  claimed_at: NullableTimestamp;
  completed_at: NullableTimestamp;
}

/** 0027: the weekly summary of an app, one per UTC week (server/insights/weekly.ts); what every recipient is sent. */
export interface WeeklySummariesTable {
  id: Generated<number>;
  app_key: string;
  /** The Monday (UTC) the week began, 'YYYY-MM-DD'. */
  week_start: ColumnType<Date | string, string, string>;
  method: 'extractive' | 'llm';
  text: string;
  content: ColumnType<unknown, string, string>;
  citations: Generated<string[]>;
  note: string | null;
  created_at: Generated<Timestamp>;
}

/** 0026: Ask ARB conversations (server/askArb/chatData.ts): a visitor's (org_id null, read by its id) or an organisation's. */
export interface AskArbChatsTable {
  id: string;
  org_id: string | null;
  /** The app a visitor's chat is about; null for an organisation's chat (all its apps). */
  app_key: string | null;
  /** The last question's filters (AskFilters), inherited by a follow-up. */
  filters: ColumnType<unknown, string | undefined, string>;
  /** The last question's intent (AskIntent) and topic, for a follow-up such as "and in Germany?". */
  intent: string | null;
  topic: string | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface AskArbMessagesTable {
  id: string;
  chat_id: string;
  /** Order within the chat. */
  seq: number;
  role: 'user' | 'assistant';
  content: string;
  /** AskCitation[] as shown with the answer. */
  citations: ColumnType<unknown, string | undefined, string>;
  method: 'llm' | 'computed' | 'none';
  created_at: Generated<Timestamp>;
}
