/**
 * Whole answers of the API for component-test fakes, typed by the document (lib/api/schema.d.ts) so a field the server
 * adds, renames or narrows breaks tsc here. A test states only what it is about (`org('admin')`,
 * `connected({ destination_id: 'd1' })`); the rest is the answer's real shape with plain values.
 */
import type { ApiData } from '@/lib/api/openapi';
import { PLANS } from '@/shared/plans';

type Org = ApiData<'/api/v1/org', 'get'>;
type Member = ApiData<'/api/v1/org/members', 'get'>[number];
type OrgApp = ApiData<'/api/v1/org/apps', 'get'>[number];
type Connected = ApiData<'/api/v1/oauth/platform/connect', 'post'>;
type SignedIn = ApiData<'/api/v1/auth/token/exchange', 'post'>;

const CREATED = '2026-01-01T00:00:00Z';
const noUsage: Org['usage'] = { apps: 0, channels: 0, members: 1, api_keys: 0, ask_arb_questions: 0, api_calls: 0 };

/** GET /api/v1/org for a member with this role, on a plan of the catalogue (Free unless `over.plan` says). */
export function org(role: Org['role'], over: Partial<Org> = {}): Org {
  const plan = PLANS.find((p) => p.id === (over.plan ?? 'free'))!;
  return {
    id: 'org_1',
    name: 'Acme Mobile',
    plan: plan.id,
    plan_name: plan.name,
    role,
    members: 1,
    created_at: CREATED,
    usage: noUsage,
    limits: plan.limits,
    features: plan.features,
    ai: { language_model: false, translation: false },
    ...over,
  };
}

/** One row of GET /api/v1/org/members. */
export const member = (id: string, email: string, role: Member['role'], you = false, over: Partial<Member> = {}): Member => ({
  id,
  email,
  name: null,
  role,
  joined_at: CREATED,
  last_sign_in_at: null,
  you,
  ...over,
});

/** One row of GET /api/v1/org/apps: an app without reviews or snapshots yet (App Store apps watched in the United States). */
export const orgApp = (over: Partial<OrgApp> & Pick<OrgApp, 'app_id' | 'app_store' | 'title'>): OrgApp => ({
  key: `${over.app_store}__${over.app_id}`,
  icon_url: null,
  developer: null,
  countries: over.app_store === 'apple_app_store' ? ['us'] : [],
  added_by: null,
  added_at: CREATED,
  rating: null,
  store_rating: null,
  review_count: 0,
  reviews_this_week: 0,
  last_review: null,
  credentials: null,
  paused: false,
  ...over,
});

/** The answer of the three connect calls (platform payload, bot OAuth, Slack OAuth): a new destination, confirmed. */
export const connected = (over: Partial<Connected> & Pick<Connected, 'destination_id'>): Connected => ({
  platform: 'slack',
  app: { app_id: '284882215', app_store: 'apple_app_store', title: 'Lantern', icon: null },
  created: true,
  label: null,
  warning: null,
  status: {},
  confirmation: null,
  ...over,
});

/** POST /api/v1/auth/token/exchange: the session and its refresh token. */
export const signedIn = (over: Partial<SignedIn> = {}): SignedIn => ({ authToken: 'a.b.c', refreshToken: 'r.e.f', email: 'ana@example.com', ...over });
