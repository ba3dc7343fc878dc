/**
 * Table types for Kysely. Keep in step with migrations/. Each later migration adds its tables to Database below.
 */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface OrgsTable {
  id: string;
  name: string;
  plan: Generated<string>;
  created_at: Generated<Timestamp>;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string | null;
  display_name: string | null;
  org_id: string;
  role: Generated<string>;
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

export interface Database {
  orgs: OrgsTable;
  users: UsersTable;
  login_codes: LoginCodesTable;
  sign_in_tokens: SignInTokensTable;
  rate_limits: RateLimitsTable;
  app_events: AppEventsTable;
  contact_messages: ContactMessagesTable;
}
