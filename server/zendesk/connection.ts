/**
 * An organisation's Zendesk connection: checked with one call (GET /api/v2/users/me.json) before it is saved, the API
 * token sealed with ENCRYPTION_KEY and never answered, recorded in the audit log without secrets.
 */
import { encryptSecret, randomId } from '../crypto';
import { env } from '../env';
import { HttpError, notFound } from '../http/errors';
import { log } from '../log';
import { recordAudit } from '../org/data';
import type { Membership } from '../org/membership';
import { getMe, ZendeskError } from './client';
import { connectionOf, deleteConnection, saveConnection, setSigningSecret, type ConnectionRow } from './data';

export const webhookUrlOf = (c: ConnectionRow) => `${env().APP_URL}/api/v1/integrations/zendesk/webhook?${new URLSearchParams({ key: c.webhook_key })}`;

/** A refusal of the check, as the answer: 422 for credentials Zendesk refused, 502 when it could not say. */
function checkFailed(err: ZendeskError): HttpError {
  if (err.kind === 'rate_limited') return new HttpError(429, 'rate_limited', err.message, { 'Retry-After': String(err.retryAfterSeconds ?? 60) });
  if (err.kind === 'unavailable') return new HttpError(502, 'upstream_error', err.message);
  if (err.kind === 'not_found') return new HttpError(422, 'zendesk_refused', `There is no Zendesk account at this subdomain, or its API is off: check the subdomain (the "acme" of acme.zendesk.com).`);
  return new HttpError(422, 'zendesk_refused', err.message);
}

export async function connectZendesk(m: Membership, input: { subdomain: string; email: string; apiToken: string }): Promise<ConnectionRow> {
  let me;
  try {
    me = await getMe({ subdomain: input.subdomain, email: input.email, apiToken: input.apiToken });
  } catch (err) {
    if (err instanceof ZendeskError) throw checkFailed(err);
    throw err;
  }
  const before = await connectionOf(m.orgId);
  const row = await saveConnection({
    orgId: m.orgId,
    subdomain: input.subdomain,
    email: input.email,
    apiTokenEnc: encryptSecret(input.apiToken),
    userId: me.id,
    userName: me.name ?? null,
    webhookKey: before?.webhook_key ?? randomId('zwh', 32),
    createdBy: m.userId,
  });
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'zendesk.connected', target: `${input.subdomain}.zendesk.com`, details: { email: input.email } });
  log.info('zendesk connected', { org: m.orgId, subdomain: input.subdomain });
  return row;
}

export async function setWebhookSecret(m: Membership, secret: string): Promise<ConnectionRow> {
  if (!(await setSigningSecret(m.orgId, encryptSecret(secret)))) throw notConnected();
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'zendesk.webhook_secret_set', target: null });
  return (await connectionOf(m.orgId))!;
}

export async function disconnectZendesk(m: Membership): Promise<void> {
  const c = await connectionOf(m.orgId);
  if (!c || !(await deleteConnection(m.orgId))) throw notFound('Zendesk is not connected to this organisation.');
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'zendesk.disconnected', target: `${c.subdomain}.zendesk.com` });
  log.info('zendesk disconnected', { org: m.orgId });
}

export const notConnected = () =>
  new HttpError(409, 'zendesk_not_connected', 'Zendesk is not connected to this organisation: an admin connects it on the Integrations page (Dashboard → Integrations).');

