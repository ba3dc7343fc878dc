/** Hourly: grace-period reminders, and the end of grace periods (grace.ts). */
import { periodicJob } from '../periodic';
import { runGracePeriods } from './grace';

export const gracePeriodsJob = periodicJob({ name: 'billing-grace-periods', everyMs: 3600_000, run: async () => void (await runGracePeriods()) });
