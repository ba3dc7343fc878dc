/**
 * Every API route file, in one list: the OpenAPI document (server/http/openapi.ts) and the fuzz test read it.
 * A new file under pages/api needs a line here — tests/unit/routes.test.ts fails until it has one.
 * `path` is the URL as Next serves the file ([id] segments stay as written).
 */
import type { RouteHandler } from './api';
import health from '@/pages/api/health';
import openApiJson from '@/pages/api/openapi.json';
import search from '@/pages/api/search';
import appsEvent from '@/pages/api/v1/apps/event';
import authEmail from '@/pages/api/v1/auth/email';
import authEmailConfirm from '@/pages/api/v1/auth/email/confirm';
import authLogout from '@/pages/api/v1/auth/logout';
import authLogoutEverywhere from '@/pages/api/v1/auth/logout/everywhere';
import tokenCrmExchange from '@/pages/api/v1/auth/token/crm-exchange';
import tokenExchange from '@/pages/api/v1/auth/token/exchange';
import tokenHandoff from '@/pages/api/v1/auth/token/handoff';
import tokenRefresh from '@/pages/api/v1/auth/token/refresh';
import tokenRenew from '@/pages/api/v1/auth/token/renew';
import billingPurchase from '@/pages/api/v1/org/billing/purchase';
import publicAppDetails from '@/pages/api/v1/public/app-details';
import publicContact from '@/pages/api/v1/public/contact';
import oauthAuthorize from '@/pages/api/v1/oauth/authorize';
import oauthBotConnect from '@/pages/api/v1/oauth/bot/connect';
import oauthPlatformConnect from '@/pages/api/v1/oauth/platform/connect';
import oauthSlackCallback from '@/pages/api/v1/oauth/slack/callback';
import publicConfig from '@/pages/api/v1/public/config';
import publicDestination from '@/pages/api/v1/public/destination/[id]';
import publicEmailConfirm from '@/pages/api/v1/public/email/confirm';
import publicEmailUnsubscribe from '@/pages/api/v1/public/email/unsubscribe';
import publicReviews from '@/pages/api/v1/public/reviews';
import publicSendSummary from '@/pages/api/v1/public/send-summary';
import stripePortal from '@/pages/api/v1/stripe/portal';
import stripeQuickPay from '@/pages/api/v1/stripe/quick-pay';

export type ApiRouteEntry = { path: string; route: RouteHandler };

export const apiRoutes: ApiRouteEntry[] = [
  { path: '/api/health', route: health },
  { path: '/api/openapi.json', route: openApiJson },
  { path: '/api/search', route: search },
  { path: '/api/v1/apps/event', route: appsEvent },
  { path: '/api/v1/auth/email', route: authEmail },
  { path: '/api/v1/auth/email/confirm', route: authEmailConfirm },
  { path: '/api/v1/auth/logout', route: authLogout },
  { path: '/api/v1/auth/logout/everywhere', route: authLogoutEverywhere },
  { path: '/api/v1/auth/token/crm-exchange', route: tokenCrmExchange },
  { path: '/api/v1/auth/token/exchange', route: tokenExchange },
  { path: '/api/v1/auth/token/handoff', route: tokenHandoff },
  { path: '/api/v1/auth/token/refresh', route: tokenRefresh },
  { path: '/api/v1/auth/token/renew', route: tokenRenew },
  { path: '/api/v1/org/billing/purchase', route: billingPurchase },
  { path: '/api/v1/public/app-details', route: publicAppDetails },
  { path: '/api/v1/public/contact', route: publicContact },
  { path: '/api/v1/oauth/authorize', route: oauthAuthorize },
  { path: '/api/v1/oauth/bot/connect', route: oauthBotConnect },
  { path: '/api/v1/oauth/platform/connect', route: oauthPlatformConnect },
  { path: '/api/v1/oauth/slack/callback', route: oauthSlackCallback },
  { path: '/api/v1/public/config', route: publicConfig },
  { path: '/api/v1/public/destination/[id]', route: publicDestination },
  { path: '/api/v1/public/email/confirm', route: publicEmailConfirm },
  { path: '/api/v1/public/email/unsubscribe', route: publicEmailUnsubscribe },
  { path: '/api/v1/public/reviews', route: publicReviews },
  { path: '/api/v1/public/send-summary', route: publicSendSummary },
  { path: '/api/v1/stripe/portal', route: stripePortal },
  { path: '/api/v1/stripe/quick-pay', route: stripeQuickPay },
];
