/**
 * PUT and DELETE v1/org/apps/{appKey}/credentials: the organisation's store credentials for one of its apps (admins
 * and owners; members get 403, another organisation's app is a 404). PUT checks them with one real call to the store
 * before saving and answers the app as the list shows it: the credentials' kind, label and check time, never the key.
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { requireRole } from '../org/membership';
import { removeAppCredentials, setAppCredentials } from './credentials';
import { credentialsBody } from './credentialsInput';
import { appJson, appKeyParam, appShape } from './endpoints';

export const putAppCredentials = endpoint({
  statuses: [404, 422, 502],
  summary:
    "Store the app's store credentials (admins and owners): an App Store Connect API key or a Google Play service-account key, checked with one call to the store before saving; the engine then reads the app through the store's official API",
  tags: ['apps'],
  auth: 'user',
  params: appKeyParam,
  body: credentialsBody,
  maxBodyBytes: 64 * 1024,
  response: appShape,
  handler: async ({ auth, params, body }) => appJson(await setAppCredentials(await requireRole(auth, 'admin', 'manage store credentials'), params.appKey, body)),
});

export const deleteAppCredentials = endpoint({
  statuses: [404],
  summary: "Remove the app's store credentials (admins and owners): the engine goes back to the public sources unless another organisation's credentials serve the app",
  tags: ['apps'],
  auth: 'user',
  params: appKeyParam,
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, params }) => {
    await removeAppCredentials(await requireRole(auth, 'admin', 'manage store credentials'), params.appKey);
    return { ok: true as const };
  },
});
