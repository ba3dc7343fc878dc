/**
 * GET/POST v1/org/apps and DELETE v1/org/apps/{appKey}: the organisation's apps. Everyone in the organisation reads
 * them; adding and removing are for admins and owners (403 for members). An app key is `{app_store}__{app_id}`; an
 * app that is not the caller's organisation's is not found (404).
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { membershipOf, requireRole } from '../org/membership';
import { appRefSchema, withCheckedAppId } from '@/shared/appIdSchemas';
import { normalizeAppId } from '@/shared/appIds';
import { isAppStore } from '@/shared/appStores';
import { isStorefrontCode } from '@/shared/storefronts';
import { addOrgApp, appsOf, removeOrgApp } from './service';
import type { OrgAppRow } from './data';
import { appShape } from './appShape';

export { appShape };

/** `{app_store}__{app_id}` as it appears in paths and filters (the id's own rules are checked after). */
export const APP_KEY_PATTERN = /^(apple_app_store|google_play_store)__[A-Za-z0-9._]{1,200}$/;

/** The app key of a path, checked against its store's id rule (the id normalised); null when it is not one. */
export function parseAppKey(key: string): string | null {
  const at = key.indexOf('__');
  const store = key.slice(0, at);
  const appId = at > 0 && isAppStore(store) ? normalizeAppId(store, key.slice(at + 2)) : null;
  return APP_KEY_PATTERN.test(key) && appId !== null ? `${store}__${appId}` : null;
}

export const appKeyParam = z.object({ appKey: z.string() }).transform(({ appKey }, ctx) => {
  const key = parseAppKey(appKey);
  if (key === null) {
    ctx.addIssue({ code: 'custom', message: 'appKey: must be {app_store}__{app_id}, e.g. apple_app_store__284882215 or google_play_store__com.example.app.' });
    return z.NEVER;
  }
  return { appKey: key };
});

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);



export const appJson = (a: OrgAppRow): z.infer<typeof appShape> => ({
  key: a.app_key,
  app_id: a.app_id,
  app_store: a.store as 'apple_app_store' | 'google_play_store',
  title: a.title,
  icon_url: a.icon_url,
  developer: a.developer,
  countries: a.countries,
  added_by: a.added_by_email,
  added_at: iso(a.created_at)!,
  rating: a.rating === null ? null : Math.round(Number(a.rating) * 100) / 100,
  store_rating: a.store_rating
    ? {
        rating: a.store_rating.rating === null ? null : Math.round(a.store_rating.rating * 100) / 100,
        ratings_count: a.store_rating.ratings_count,
        as_of: a.store_rating.as_of,
        change_7d: a.store_rating.change_7d === null ? null : Math.round(a.store_rating.change_7d * 100) / 100,
      }
    : null,
  review_count: Number(a.review_count),
  reviews_this_week: Number(a.reviews_this_week),
  last_review: a.last_review_at ? { at: iso(a.last_review_at)!, rating: Number(a.last_review_rating) } : null,
  credentials:
    a.credentials_kind && a.credentials_checked_at
      ? { kind: a.credentials_kind as 'app_store_connect' | 'google_play', label: a.credentials_label ?? '', checked_at: iso(a.credentials_checked_at)! }
      : null,
  paused: !!a.plan_paused_at,
});

export const listOrgApps = endpoint({
  summary: "The organisation's apps with their rating, review count, reviews this week and last review",
  tags: ['apps'],
  auth: 'user',
  response: z.array(appShape),
  handler: async ({ auth }) => (await appsOf(await membershipOf(auth))).map(appJson),
});

export const addOrgAppEndpoint = endpoint({
  statuses: [201, 402, 404, 409, 502, 503],
  summary: 'Add an app to the organisation (admins and owners): its reviews are watched from now on; again to change its App Store countries',
  tags: ['apps'],
  auth: 'user',
  body: appRefSchema
    .extend({
      countries: z
        .array(z.string('countries: each must be a two-letter code.').transform((c) => c.toLowerCase()))
        .max(60, 'countries: at most 60 storefronts.')
        .optional()
        .meta({ description: 'App Store storefronts (two-letter codes); "us" when absent. Not for Google Play apps.' }),
    })
    .transform(withCheckedAppId)
    .superRefine((v, ctx) => {
      if (v.app_store === 'google_play_store' && v.countries?.length) {
        ctx.addIssue({ code: 'custom', path: ['countries'], message: 'Google Play reviews are read by language, not by country: leave countries out.' });
      }
      const wrong = v.countries?.find((c) => !isStorefrontCode(c));
      if (wrong !== undefined) ctx.addIssue({ code: 'custom', path: ['countries'], message: `"${wrong.slice(0, 20)}" is not an App Store storefront.` });
    }),
  response: appShape,
  handler: async (ctx) => {
    const m = await requireRole(ctx.auth, 'admin', 'add apps');
    const { app, created } = await addOrgApp(m, { store: ctx.body.app_store, appId: ctx.body.app_id }, ctx.body.countries ?? []);
    ctx.status = created ? 201 : 200;
    return appJson(app);
  },
});

export const removeOrgAppEndpoint = endpoint({
  statuses: [404],
  summary: 'Remove an app from the organisation (admins and owners); it stops being watched unless something else wants it',
  tags: ['apps'],
  auth: 'user',
  params: appKeyParam,
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, params }) => {
    await removeOrgApp(await requireRole(auth, 'admin', 'remove apps'), params.appKey);
    return { ok: true as const };
  },
});
