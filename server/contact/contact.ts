/**
 * The contact form: every message is stored first (so none is lost when mail is down), then e-mailed to TEAM_EMAIL
 * with Reply-To set to the sender, so the team answers with one click.
 */
import { env } from '../env';
import { enforceRateLimit, ipRateKey, type RateLimitRule } from '../http/rateLimit';
import { log } from '../log';
import { escapeHtml, sendMail } from '../mail/send';
import { claimContactMessage, createContactMessage, getUnsentContactMessages, releaseContactMessage, updateContactMessageEmailed } from './data';

export const CONTACT_LIMIT: RateLimitRule = { name: 'contact:ip', limit: 5, windowSeconds: 3600 };

function contactEmail(input: { id: number; email: string; message: string }) {
  return {
    to: env().TEAM_EMAIL,
    replyTo: input.email,
    subject: `Contact form: message from ${input.email}`,
    text: `From: ${input.email}\nMessage #${input.id}\n\n${input.message}\n`,
    html:
      `<p>From: <a href="mailto:${escapeHtml(input.email)}">${escapeHtml(input.email)}</a><br>Message #${input.id}</p>` +
      `<div style="white-space:pre-wrap">${escapeHtml(input.message)}</div>`,
  };
}

export async function submitContactMessage(input: { email: string; message: string; ip: string }): Promise<void> {
  await enforceRateLimit(CONTACT_LIMIT, ipRateKey(input.ip), 'You have sent several messages already. Try again in an hour.');
  const id = await createContactMessage(input);
  try {
    await sendMail(contactEmail({ id, email: input.email, message: input.message }));
    await updateContactMessageEmailed(id, new Date());
  } catch (err) {
    // Stored is enough to answer the visitor: resendUnsentContactMessages() tries again later.
    log.error('contact message stored but not e-mailed', { err, contactMessageId: id });
  }
}

/** Retry messages whose e-mail failed (a few minutes old, so a request still sending is left alone). */
export async function resendUnsentContactMessages(now = new Date()): Promise<number> {
  const unsent = await getUnsentContactMessages({
    createdBefore: new Date(now.getTime() - 5 * 60_000),
    createdAfter: new Date(now.getTime() - 7 * 24 * 3600_000),
    limit: 50,
  });
  let sent = 0;
  for (const m of unsent) {
    if (!(await claimContactMessage(m.id, now))) continue;
    try {
      await sendMail(contactEmail({ id: m.id, email: m.email, message: m.message }));
      sent += 1;
    } catch (err) {
      await releaseContactMessage(m.id);
      log.warn('contact message still not e-mailed', { err, contactMessageId: m.id });
      break; // the mail server is still down: try the rest next time
    }
  }
  return sent;
}
