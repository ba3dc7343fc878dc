/** Every 10 minutes: e-mail contact messages that were stored while the mail server was down. */
import { log } from '../log';
import { periodicJob } from '../periodic';
import { resendUnsentContactMessages } from './contact';

export const contactResendJob = periodicJob({
  name: 'contact-resend',
  everyMs: 600_000,
  run: async () => {
    const sent = await resendUnsentContactMessages();
    if (sent) log.info('stored contact messages e-mailed', { sent });
  },
});
