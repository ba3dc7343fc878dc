/**
 * The public API's apps list per organisation, kept in memory as its finished answer (body and ETag made once) for
 * PUBLIC_API_CACHE_MS, so a warm `GET v1/apps` reads nothing. A change to the organisation's apps made in this process
 * (added, removed, storefronts, credentials, paused or resumed by the plan) forgets it at once: the service that writes
 * it calls forgetOrgApps after its write. New reviews and changes made by other processes show within
 * PUBLIC_API_CACHE_MS (reviews arrive by polling, minutes apart).
 *
 * Only a type is imported from the HTTP layer, so the services that forget an organisation's list load nothing more.
 * On globalThis: the API routes and the server code may load this module as two copies in one process.
 */
import { env } from '../env';
import type { z } from 'zod';
import type { taggedAnswer } from '../http/api';
import type { appShape } from '../orgApps/appShape';
import { createReadCache, type ReadCache } from '../apiKeys/readCache';

/** One app of the list: the dashboard's app shape, its id in the reviews call and its store's short label. */
type PublicApp = z.input<typeof appShape> & { id: string; app_store_slug: string };
type Answer = ReturnType<typeof taggedAnswer<PublicApp[]>>;

const g = globalThis as unknown as { __arbPublicAppsLists?: ReadCache<Answer> };
const lists = (g.__arbPublicAppsLists ??= createReadCache<Answer>({ max: 20_000, ttlMs: () => env().PUBLIC_API_CACHE_MS }));

/** The organisation's list answer when it is in memory: answered without a promise. */
export const cachedAppsAnswer = (orgId: string): Answer | undefined => lists.get(orgId);

/** The organisation's list answer, made by `read` when it is not in memory (concurrent callers share one read). */
export const loadAppsAnswer = (orgId: string, read: () => Promise<Answer>): Promise<Answer> => lists.load(orgId, read);

/** After the organisation's apps changed in this process. */
export const forgetOrgApps = (orgId: string): void => lists.forget(orgId);

/** Tests: forget every list. */
export const clearAppsLists = (): void => lists.clear();
