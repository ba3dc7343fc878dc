/**
 * Shapes of the API's `data` answers the browser reads. Those the API describes come from the generated OpenAPI types
 * (lib/api/openapi.ts), so they cannot drift from what the server answers.
 */
import type { AppStore, Platform } from '@/shared/appStores';
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

/** A connection's state (GET v1/public/destination/{id}): one definition, shared with the server. */
export type { DestinationState } from '@/shared/destinations';

