/**
 * Saved reply texts per app ({author} and {app} are filled in when one is picked). Every member may use and keep them:
 * replying is a member's work. A template may not be longer than its app's store allows a reply to be.
 */
import { randomId } from '../crypto';
import { HttpError, badRequest, notFound } from '../http/errors';
import { recordAudit } from '../org/data';
import type { Membership } from '../org/membership';
import { orgAppOrNotFound } from '../orgApps/service';
import { REPLY_MAX_CHARS, replyLength, STORE_NAMES, type ReplyStore } from '@/shared/replies';
import { countTemplates, deleteTemplate, insertTemplate, listTemplates, updateTemplate, type TemplateRow } from './data';

/** Enough for every situation a support team answers often; more is a list nobody reads. */
export const MAX_TEMPLATES_PER_APP = 50;

function checkBody(store: string, body: string): string {
  const max = REPLY_MAX_CHARS[store as ReplyStore];
  const n = replyLength(body);
  if (n > max) throw badRequest(`body: a ${STORE_NAMES[store as ReplyStore]} reply can be at most ${max.toLocaleString('en-US')} characters, and this template has ${n.toLocaleString('en-US')}.`);
  return body.trim();
}

export async function templatesOf(m: Membership, appKey?: string): Promise<TemplateRow[]> {
  if (appKey) await orgAppOrNotFound(m, appKey);
  return listTemplates(m.orgId, appKey);
}

export async function addTemplate(m: Membership, input: { appKey: string; name: string; body: string }): Promise<TemplateRow> {
  const app = await orgAppOrNotFound(m, input.appKey);
  const body = checkBody(app.store, input.body);
  if ((await countTemplates(m.orgId, input.appKey)) >= MAX_TEMPLATES_PER_APP) {
    throw new HttpError(409, 'too_many_templates', `${app.title} has ${MAX_TEMPLATES_PER_APP} templates already, the most an app can have: delete one you no longer use first.`);
  }
  const t = await insertTemplate({ id: randomId('tpl_'), orgId: m.orgId, appKey: input.appKey, name: input.name, body, createdBy: m.userId });
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'reply_template.created', target: input.name, details: { app: input.appKey } });
  return t;
}

export async function changeTemplate(m: Membership, id: string, fields: { name?: string; body?: string }): Promise<TemplateRow> {
  const current = (await listTemplates(m.orgId)).find((t) => t.id === id);
  if (!current) throw notFound('There is no such template in your organisation.');
  const app = await orgAppOrNotFound(m, current.app_key);
  const t = await updateTemplate(m.orgId, id, { ...fields, ...(fields.body !== undefined ? { body: checkBody(app.store, fields.body) } : {}) });
  if (!t) throw notFound('There is no such template in your organisation.');
  return t;
}

export async function removeTemplate(m: Membership, id: string): Promise<void> {
  if (!(await deleteTemplate(m.orgId, id))) throw notFound('There is no such template in your organisation.');
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'reply_template.deleted', target: id });
}
