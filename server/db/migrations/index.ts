import type { Migration } from 'kysely';
import * as m0001 from './0001_core';
import * as m0002 from './0002_monitoring';
import * as m0003 from './0003_connect';
import * as m0004 from './0004_email_consent';
import * as m0005 from './0005_auth_sessions';
import * as m0006 from './0006_engine_hardening';
import * as m0007 from './0007_secrets_fingerprint';
import * as m0008 from './0008_source_format_errors';
import * as m0009 from './0009_disabled_cause';
import * as m0010 from './0010_team';
import * as m0011 from './0011_org_apps';
import * as m0012 from './0012_review_search';
import * as m0013 from './0013_api_keys';
import * as m0014 from './0014_app_credentials';
import * as m0015 from './0015_org_plans';
import * as m0016 from './0016_api_call_usage';
import * as m0017 from './0017_replies';
import * as m0018 from './0018_webhook_destinations';
import * as m0019 from './0019_stripe_sync';
import * as m0020 from './0020_review_enrichment';
import * as m0021 from './0021_slack_workspaces';
import * as m0022 from './0022_reply_tone';
import * as m0023 from './0023_spike_alerts';
import * as m0024 from './0024_summaries';
import * as m0025 from './0025_ask_arb_search';
import * as m0026 from './0026_ask_arb_chats';
import * as m0027 from './0027_weekly_summaries';
import * as m0028 from './0028_slack_reply_messages';
import * as m0029 from './0029_app_write_seq';
import * as m0030 from './0030_handoff_nonce';
import * as m0031 from './0031_slack_user_links';
import * as m0032 from './0032_refused_subscriptions';
import * as m0033 from './0033_invitation_mail';
import * as m0034 from './0034_webhook_message_ids';
import * as m0035 from './0035_delivery_housekeeping';
import * as m0036 from './0036_store_ratings';
import * as m0038 from './0038_overview_rollups';
import * as m0039 from './0039_review_workflow';
import * as m0040 from './0040_rules';
import * as m0041 from './0041_reply_approvals';
import * as m0042 from './0042_zendesk';
import * as m0043 from './0043_slack_ask';
import * as m0044 from './0044_rule_queue_no_fk';

/**
 * Every migration, in order. Add a new file as NNNN_name.ts and one line here; never edit a migration that has shipped.
 * Reserved numbers: 0002 monitoring engine (apps, sources, reviews, destinations, deliveries), 0003 connect flow and
 * e-mail subscriptions, 0004 e-mail consent (pending e-mail destinations, unsubscribe generations).
 */
export const migrations: Record<string, Migration> = {
  '0001_core': m0001,
  '0002_monitoring': m0002,
  '0003_connect': m0003,
  '0004_email_consent': m0004,
  '0005_auth_sessions': m0005,
  '0006_engine_hardening': m0006,
  '0007_secrets_fingerprint': m0007,
  '0008_source_format_errors': m0008,
  '0009_disabled_cause': m0009,
  '0010_team': m0010,
  '0011_org_apps': m0011,
  '0012_review_search': m0012,
  '0013_api_keys': m0013,
  '0014_app_credentials': m0014,
  '0015_org_plans': m0015,
  '0016_api_call_usage': m0016,
  '0017_replies': m0017,
  '0018_webhook_destinations': m0018,
  '0019_stripe_sync': m0019,
  '0020_review_enrichment': m0020,
  '0021_slack_workspaces': m0021,
  '0022_reply_tone': m0022,
  '0023_spike_alerts': m0023,
  '0024_summaries': m0024,
  '0025_ask_arb_search': m0025,
  '0026_ask_arb_chats': m0026,
  '0027_weekly_summaries': m0027,
  '0028_slack_reply_messages': m0028,
  '0029_app_write_seq': m0029,
  '0030_handoff_nonce': m0030,
  '0031_slack_user_links': m0031,
  '0032_refused_subscriptions': m0032,
  '0033_invitation_mail': m0033,
  '0034_webhook_message_ids': m0034,
  '0035_delivery_housekeeping': m0035,
  '0036_store_ratings': m0036,
  '0038_overview_rollups': m0038,
  '0039_review_workflow': m0039,
  '0040_rules': m0040,
  '0041_reply_approvals': m0041,
  '0042_zendesk': m0042,
  '0043_slack_ask': m0043,
  '0044_rule_queue_no_fk': m0044,
};
