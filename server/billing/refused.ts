/**
 * A second live subscription for an organisation that already pays — a Checkout tab opened before the first
 * purchase and paid later, two tabs paid one after the other — is never applied: the running subscription is kept,
 * the newcomer is recorded (refused_subscriptions, migration 0032), cancelled through Stripe, and the owners are told
 * once by e-mail; the Billing page says so too (GET v1/org/billing `refused_subscriptions`). Every step is safe to
 * repeat: Stripe sends several events for the newcomer, possibly to several processes at once.
 */
import { env } from '../env';
import { log } from '../log';
import { MailDeliveryError, sendMail } from '../mail/send';
import { planById } from '@/shared/plans';
import { claimRefusedNotice, getRefusedSubscription, markRefusedCancelled, ownerEmails, recentRefusedSubscriptions, recordRefusedSubscription } from './data';
import { stripeClient, type Stripe } from './stripe';

/** Subscription states in which it is still running (paid, on trial, or being retried). */
export const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due']);

/** States a subscription can be cancelled from (Stripe refuses to cancel one that already ended). */
const CANCELLABLE = new Set(['active', 'trialing', 'past_due', 'incomplete', 'unpaid', 'paused']);

/** The plan's name, for the e-mail and the Billing page ("the Business plan"), or a plain fallback. */
export const refusedPlanWords = (plan: string | null) => (plan && planById(plan) ? `the ${planById(plan)!.name} plan` : 'a plan');

function refusedMail(plan: string | null): { subject: string; text: string } {
  const billing = `${env().APP_URL}/dashboard/billing`;
  return {
    subject: 'A second ARB subscription was cancelled',
    text:
      `Your ARB organisation already has a running subscription, and a second one for ${refusedPlanWords(plan)} was just started, ` +
      `probably from a checkout page that was still open in another tab.\n\n` +
      `We kept the subscription you already had and cancelled the second one at once, so you are not billed twice. ` +
      `Nothing about your plan, apps or channels changed.\n\n` +
      `If a payment was taken for the second subscription, contact us (${env().APP_URL}/contact) and we will refund it. ` +
      `To change your plan, use the Billing page: ${billing}\n`,
  };
}

/** Cancels `sub` through Stripe unless it ended already; a cancellation another process made first is fine. */
async function cancelInStripe(sub: Stripe.Subscription): Promise<void> {
  if (!CANCELLABLE.has(sub.status)) return;
  const stripe = stripeClient();
  try {
    await stripe.subscriptions.cancel(sub.id, {
      prorate: true,
      cancellation_details: { comment: 'ARB: a second subscription for an organisation that already pays; the running one was kept.' },
    });
  } catch (err) {
    const now = await stripe.subscriptions.retrieve(sub.id);
    if (CANCELLABLE.has(now.status)) throw err;
  }
}

/**
 * Keeps `keptSubscriptionId` and refuses `sub`: recorded, cancelled through Stripe, owners e-mailed once. A failure
 * to cancel throws (the webhook gives the event back and Stripe delivers it again, which finishes the job).
 */
export async function refuseSubscription(orgId: string, sub: Stripe.Subscription, keptSubscriptionId: string, plan: string | null): Promise<void> {
  await recordRefusedSubscription({ subscriptionId: sub.id, orgId, keptSubscriptionId, plan });
  await cancelInStripe(sub);
  await markRefusedCancelled(sub.id);
  log.warn('a second live subscription was refused and cancelled: the running one is kept', { refused: sub.id, kept: keptSubscriptionId });
  if (!(await claimRefusedNotice(sub.id))) return;
  const mail = refusedMail(plan);
  for (const to of await ownerEmails(orgId)) {
    try {
      await sendMail({ to, ...mail });
    } catch (err) {
      if (!(err instanceof MailDeliveryError)) throw err;
      log.warn('refused-subscription e-mail not sent', { refused: sub.id, err: err.message });
    }
  }
}

/**
 * News of a subscription refused before: it is never applied. One still running (its cancellation did not go
 * through) is cancelled again. True when `sub` was refused.
 */
export async function handleRefusedAgain(sub: Stripe.Subscription): Promise<boolean> {
  const refused = await getRefusedSubscription(sub.id);
  if (!refused) return false;
  if (LIVE_STATUSES.has(sub.status) || !refused.cancelled_at) await refuseSubscription(refused.org_id, sub, refused.kept_subscription_id, refused.plan);
  return true;
}

const REFUSED_SHOWN_DAYS = 30;

/** What the Billing page says about the organisation's refused subscriptions of the last 30 days, newest first. */
export async function refusedSubscriptionsOf(orgId: string, now = new Date()) {
  const rows = await recentRefusedSubscriptions(orgId, new Date(now.getTime() - REFUSED_SHOWN_DAYS * 86_400_000));
  return rows.map((r) => {
    const planName = r.plan && planById(r.plan) ? planById(r.plan)!.name : null;
    const what = `A second subscription for ${refusedPlanWords(r.plan)} was started on ${new Date(r.created_at).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })} while your subscription was running.`;
    const done = r.cancelled_at
      ? ' We kept the subscription you already had and cancelled the second one, so you are not billed twice. If you were charged for it, contact us and we will refund it.'
      : ' We kept the subscription you already had and are cancelling the second one.';
    return { refused_at: new Date(r.created_at).toISOString(), plan_name: planName, cancelled: !!r.cancelled_at, message: what + done };
  });
}
