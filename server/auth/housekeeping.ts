/** Hourly: drop sign-in codes, one-time tokens, ended sessions, hand-off codes and rate-limit counters that can no longer matter. */
import { deleteExpiredRateLimits } from '../http/rateLimit';
import { log } from '../log';
import { periodicJob } from '../periodic';
import { deleteExpiredSignInRows } from './data';
import { deleteEndedSessionRows } from './sessionData';

export const authHousekeepingJob = periodicJob({
  name: 'auth-housekeeping',
  everyMs: 3600_000,
  run: async () => {
    const now = new Date();
    const deleted = (await deleteExpiredSignInRows(now)) + (await deleteEndedSessionRows(now)) + (await deleteExpiredRateLimits({ now }));
    if (deleted) log.info('expired sign-in rows and rate limits deleted', { deleted });
  },
});
