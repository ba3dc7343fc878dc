/**
 * The dashboard's API key calls: members list them; admins and owners create (the key is in that answer only) and revoke.
 *   GET v1/org/api-keys · POST v1/org/api-keys { name } · DELETE v1/org/api-keys/{id}
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { displayName } from '../http/schemas';
import { membershipOf, requireRole } from '../org/membership';
import type { ListedApiKey } from './data';
import { createApiKey, listApiKeys, revokeKey } from './service';

const KEY_ID = /^key_[0-9A-Za-z]{24}$/;
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const keyShape = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().meta({ description: 'The first characters of the key, to tell keys apart.' }),
  created_at: z.string(),
  created_by: z.string().nullable().meta({ description: 'The e-mail of the member who created it; null once they are no longer a member ("a former member").' }),
  last_used_at: z.string().nullable(),
});
export const keyJson = (k: ListedApiKey): z.infer<typeof keyShape> => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: iso(k.created_at)!,
  created_by: k.created_by_email,
  last_used_at: iso(k.last_used_at),
});

export const listOrgApiKeys = endpoint({
  summary: "The organisation's API keys that still work, with when each was last used (every member reads; no key in it)",
  tags: ['org'],
  auth: 'user',
  response: z.array(keyShape),
  handler: async ({ auth }) => (await listApiKeys(await membershipOf(auth))).map(keyJson),
});

export const createOrgApiKey = endpoint({
  statuses: [201, 402, 409],
  summary: 'Create an API key (admins and owners). The key is in this answer only: it is stored as a hash',
  tags: ['org'],
  auth: 'user',
  body: z.object({
    name: displayName('Give the key a name, e.g. the integration that will use it.'),
  }),
  response: z.object({ id: z.string(), name: z.string(), prefix: z.string(), created_at: z.string(), created_by: z.string(), key: z.string().meta({ description: 'arb_…: shown once.' }) }),
  handler: async (ctx) => {
    const m = await requireRole(ctx.auth, 'admin', 'create API keys');
    const created = await createApiKey(m, ctx.body.name);
    ctx.status = 201;
    return { id: created.id, name: created.name, prefix: created.prefix, created_at: iso(created.created_at)!, created_by: m.email, key: created.key };
  },
});

export const revokeOrgApiKey = endpoint({
  statuses: [404],
  summary: 'Revoke an API key (admins and owners): it stops working at once',
  tags: ['org'],
  auth: 'user',
  params: z.object({ id: z.string() }).transform(({ id }, ctx) => {
    if (!KEY_ID.test(id)) ctx.addIssue({ code: 'custom', message: 'not an API key id (key_ followed by 24 letters and digits).', path: ['id'] });
    return { id };
  }),
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, params }) => {
    await revokeKey(await requireRole(auth, 'admin', 'revoke API keys'), params.id);
    return { ok: true as const };
  },
});
