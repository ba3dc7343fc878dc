/**
 * Shapes of the API's `data` answers the browser reads. Those the API describes come from the generated OpenAPI types
 * (lib/api/openapi.ts), so they cannot drift from what the server answers.
 */
import type { AppStore, Platform } from '@/lib/appStores';
import type { ApiBody, ApiData } from './openapi';

/** authToken: short-lived access token; refreshToken: renews it until the session ends (logout, 30 days). */
export type SignedInUser = ApiData<'/api/v1/auth/token/exchange', 'post'>;

export type AttributionMetadata = NonNullable<ApiBody<'/api/v1/auth/token/exchange', 'post'>['metadata']>;

export type AppSearchResult = ApiData<'/api/search', 'post'>[number];

export type AppDetails = ApiData<'/api/v1/public/app-details', 'get'>;

export type CheckoutUrl = ApiData<'/api/v1/org/billing/purchase', 'post'>;

export type PurchaseRequest = ApiBody<'/api/v1/org/billing/purchase', 'post'>;

export type ConnectResult = ApiData<'/api/v1/oauth/platform/connect', 'post'>;

export type Destination = {
  id: string;
  platform: Platform;
  status: string;
  app?: { app_id: string; app_store: AppStore; title?: string | null } | null;
} & Record<string, unknown>;

/**
 * A connection's state as GET v1/public/destination/{id} answers it: the server builds it (server/monitor/service.ts
 * DestinationStatus), the status card reads it.
 */
export type DestinationState = {
  /** pending_confirmation: an e-mail destination waiting for its mailbox to click the confirmation link. */
  status: 'active' | 'paused' | 'disabled' | 'pending_confirmation';
  /** Why it is paused, disabled or pending, in plain words. */
  status_reason: string | null;
  /** Channel name when known. */
  label: string | null;
  /** Where it posts, redacted (host and last characters): enough to recognise, useless to abuse. */
  target: string;
  warning: string | null;
  welcome: 'waiting_for_first_poll' | 'queued' | 'delivered';
  queued: number;
  delivered: number;
  last_delivery_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  /** A store's reviews of a connected app cannot be read right now (its format changed), in plain words. */
  source_problem: string | null;
  /** Pending e-mail destinations: when the confirmation e-mail went out (null before it did). */
  confirmation_sent_at: string | null;
};
