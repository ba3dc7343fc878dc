/**
 * A subscription whose payment failed keeps its plan for GRACE_PERIOD_DAYS (server/plans/plans.ts) while Stripe
 * retries the card. The owners get an e-mail when it starts, a reminder two days before it ends, and one when it
 * ended: then the organisation has the Free plan's limits, and what is over them is paused (never deleted) until a
 * payment succeeds, which resumes it. An hourly job (graceJob.ts) sends the later e-mails and applies the end.
 */
import { env } from '../env';
import { log } from '../log';
import { MailDeliveryError, sendMail } from '../mail/send';
import { fitToPlan } from '../plans/pauses';
import { GRACE_PERIOD_DAYS } from '../plans/plans';
import { markGraceNotice, orgsDueForGraceNotice, ownerEmails } from './data';

const DAY_MS = 86_400_000;
/** The reminder goes out this long before the end: time to fix the card, close enough to the end to be heeded. */
const REMINDER_BEFORE_MS = 2 * DAY_MS;

export type GraceNotice = 'started' | 'reminder' | 'ended';

const day = (d: Date) => d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

function graceMail(notice: GraceNotice, endsAt: Date): { subject: string; text: string } {
  const billing = `${env().APP_URL}/dashboard/billing`;
  if (notice === 'ended') {
    return {
      subject: 'Your ARB organisation is on the Free plan now',
      text: `We could not take the payment for your ARB subscription, and its ${GRACE_PERIOD_DAYS}-day grace period has ended.\n\nYour organisation now has the Free plan's limits. Apps and channels over them are paused, not deleted: their reviews, settings and history are kept, and they resume as soon as a payment succeeds.\n\nUpdate your card or choose what stays active: ${billing}\n`,
    };
  }
  const lead = notice === 'started' ? 'The payment for your ARB subscription failed.' : 'The payment for your ARB subscription still has not gone through.';
  return {
    subject: notice === 'started' ? 'Your ARB payment failed' : `Your ARB plan ends on ${day(endsAt)} unless the payment goes through`,
    text: `${lead}\n\nYour plan stays as it is until ${day(endsAt)} while the card is tried again. After that your organisation has the Free plan's limits, and apps and channels over them are paused (nothing is deleted).\n\nUpdate your card in the billing portal: ${billing}\n`,
  };
}

/** E-mails the organisation's owners; a failed send is logged (the state is kept, the next notice still goes). */
export async function sendGraceNotice(orgId: string, notice: GraceNotice, pastDueSince: Date): Promise<void> {
  const endsAt = new Date(pastDueSince.getTime() + GRACE_PERIOD_DAYS * DAY_MS);
  const mail = graceMail(notice, endsAt);
  for (const to of await ownerEmails(orgId)) {
    try {
      await sendMail({ to, ...mail });
    } catch (err) {
      if (!(err instanceof MailDeliveryError)) throw err;
      log.warn('grace-period e-mail not sent', { notice, err: err.message });
    }
  }
}

/** One pass of the job: reminders due, grace periods ended (the organisation is fitted to the Free plan). */
export async function runGracePeriods(now = new Date()): Promise<{ reminded: number; ended: number }> {
  const graceMs = GRACE_PERIOD_DAYS * DAY_MS;
  const due = await orgsDueForGraceNotice(now, graceMs - REMINDER_BEFORE_MS, graceMs);
  let reminded = 0;
  let ended = 0;
  for (const org of due) {
    const since = new Date(org.past_due_since);
    const over = now.getTime() - since.getTime() >= graceMs;
    const notice: GraceNotice = over ? 'ended' : 'reminder';
    if (!(await markGraceNotice(org.id, org.grace_notice, notice))) continue;
    if (over) {
      await fitToPlan(org.id, {}, now);
      ended++;
    } else reminded++;
    await sendGraceNotice(org.id, notice, since);
  }
  if (reminded || ended) log.info('grace periods', { reminded, ended });
  return { reminded, ended };
}
