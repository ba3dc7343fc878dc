/**
 * Consent for e-mail destinations. Anyone can type an address into the connect form, so a new e-mail destination
 * waits ('pending_confirmation') and its mailbox gets ONE e-mail: a signed link (48 hours) to a page that confirms by
 * POST (mail scanners open links; opening it does nothing). Until the click nothing is queued for that address; after
 * it the destination gets its welcome with the latest reviews, as any new connection does.
 * Asking again for the same pending address sends no second e-mail within RESEND_COOLDOWN_MS: the answer says when
 * the first went out and when another may.
 */
import { log } from '../log';
import { HttpError, notFound, serviceUnavailable } from '../http/errors';
import { MailDeliveryError, sendMail } from '../mail/send';
import { addressHint, confirmEmailDestination } from '../monitor/service';
import { getDestinationStatus, getEmailDestinationTarget } from '../destinations/records';
import { storeName } from '../destinations/format/text';
import { addressGeneration, isAddressUnsubscribed } from '../subscriptions/data';
import { destinationConfirmationEmail } from '../subscriptions/emails';
import { EMAIL_TOKEN_TTL_SECONDS, confirmPageUrl, oneClickUnsubscribeUrl, unsubscribePageUrl } from '../subscriptions/tokens';
import { claimConfirmationSend, releaseConfirmationSend } from '../monitor/data';

/** A second confirmation e-mail for the same pending destination waits at least this long. */
export const RESEND_COOLDOWN_MS = 15 * 60_000;

/** What the connect answer says about the confirmation e-mail (null for destinations that need none). */
export type ConfirmationNotice = {
  /** True when this request sent the confirmation e-mail. */
  sent: boolean;
  /** When the last confirmation e-mail went out. */
  sent_at: string | null;
  /** When asking again can send another one. */
  resend_after: string | null;
  message: string;
};

/**
 * Sends the confirmation e-mail of a pending e-mail destination, unless one went out within the cooldown. A mail
 * server that refuses gives the claim back (the next request sends at once) and answers 503.
 */
export async function requestDestinationConfirmation(destinationId: string, address: string): Promise<ConfirmationNotice> {
  const hint = addressHint(address);
  const claim = await claimConfirmationSend(destinationId, RESEND_COOLDOWN_MS);
  if (!claim.claimed) {
    const sentAt = claim.sentAt;
    const resendAfter = sentAt ? new Date(sentAt.getTime() + RESEND_COOLDOWN_MS) : null;
    return {
      sent: false,
      sent_at: sentAt?.toISOString() ?? null,
      resend_after: resendAfter?.toISOString() ?? null,
      message: `We already sent a confirmation link to ${hint} in the last ${RESEND_COOLDOWN_MS / 60_000} minutes. Check that inbox (and its spam folder); a new link can be sent after that.`,
    };
  }
  const status = await getDestinationStatus(destinationId);
  const generation = await addressGeneration(address);
  try {
    await sendMail(
      destinationConfirmationEmail({
        to: address,
        apps: (status?.apps ?? []).map((a) => ({ title: a.title, storeName: storeName(a.app_store as 'apple_app_store' | 'google_play_store'), storeUrl: null })),
        confirmUrl: await confirmPageUrl({ purpose: 'destination', destinationId, generation }),
        validHours: EMAIL_TOKEN_TTL_SECONDS.destination! / 3600,
        links: { page: await unsubscribePageUrl(address), oneClick: await oneClickUnsubscribeUrl(address) },
      }),
    );
  } catch (err) {
    await releaseConfirmationSend(destinationId, claim.previous);
    log.warn('confirmation e-mail for an e-mail destination not sent', { destinationId, error: (err as Error).message });
    if (err instanceof MailDeliveryError) throw serviceUnavailable('We could not send the confirmation e-mail just now. Try again in a few minutes.');
    throw err;
  }
  const sentAt = claim.sentAt;
  log.info('confirmation e-mail sent for an e-mail destination', { destinationId });
  return {
    sent: true,
    sent_at: sentAt.toISOString(),
    resend_after: new Date(sentAt.getTime() + RESEND_COOLDOWN_MS).toISOString(),
    message: `Check ${hint} to confirm: we sent a link there. Reviews start once it is clicked.`,
  };
}

export type DestinationConfirmed = { action: 'destination_on'; app: string; email: string };

/**
 * The confirm page's button for a new e-mail destination. Refused when the address unsubscribed after the link was
 * made (its generation moved on): an old link never undoes an unsubscribe.
 */
export async function confirmDestinationLink(destinationId: string, generation: number): Promise<DestinationConfirmed> {
  const found = await getEmailDestinationTarget(destinationId);
  if (!found) throw notFound('This connection no longer exists. Connect the app to your address again.');
  if ((await isAddressUnsubscribed(found.address)) || (await addressGeneration(found.address)) !== generation) throw linkSuperseded();
  const confirmed = await confirmEmailDestination(destinationId);
  if (!confirmed) throw notFound('This connection no longer exists. Connect the app to your address again.');
  return { action: 'destination_on', app: confirmed.appTitles.join(', '), email: addressHint(found.address) };
}

/** A link made before the address's latest unsubscribe. */
export function linkSuperseded(): HttpError {
  return new HttpError(
    409,
    'link_superseded',
    'This address unsubscribed after this link was sent, so the link can no longer turn e-mails back on. To get reviews by e-mail again, use the “Get reviews by e-mail” page: it sends a new confirmation link.',
  );
}
