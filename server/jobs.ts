/**
 * Every background job, in the order they start: `npm start` (server/main.ts, with WORKER=on) and each `npm run worker`
 * (server/monitor/workerProcess.ts) start this list with startBackgroundJobs. A job module only exports its job —
 * importing it starts nothing — so a new job is one export plus one line here (tests/unit/backgroundJobs.test.ts fails
 * for a job module whose job is missing from the list).
 */
import type { BackgroundJob } from './background';
import { enrichmentWarmUpJob, sentimentRefineJob } from './ai/jobs';
import { spikeAlertsJob } from './alerts/jobs';
import { authHousekeepingJob } from './auth/housekeeping';
import { gracePeriodsJob } from './billing/graceJob';
import { contactResendJob } from './contact/resendJob';
import { pendingSummariesJob } from './insights/jobs';
import { weeklySummariesJob } from './insights/weeklyJobs';
import { deliveryRetentionJob, outboxHousekeepingJob } from './monitor/housekeepingJobs';
import { reviewDeliveryJob, reviewPollingJob, sourceDemandJob } from './monitor/jobs';
import { replyOutboxJob } from './replies/jobs';
import { rulesJob } from './rules/jobs';
import { slackApprovalMessagesJob } from './slack/approvalJobs';
import { slackPublishedRepliesJob } from './slack/jobs';
import { storeRatingsJob } from './storeRatings/jobs';
import { reviewEmailDigestJob, reviewEmailOutboxJob } from './subscriptions/jobs';
import { zendeskOutboxJob } from './zendesk/jobs';

export const BACKGROUND_JOBS: readonly BackgroundJob[] = [
  authHousekeepingJob,
  gracePeriodsJob,
  contactResendJob,
  reviewPollingJob,
  reviewDeliveryJob,
  sourceDemandJob,
  deliveryRetentionJob,
  outboxHousekeepingJob,
  replyOutboxJob,
  rulesJob,
  reviewEmailOutboxJob,
  reviewEmailDigestJob,
  sentimentRefineJob,
  enrichmentWarmUpJob,
  spikeAlertsJob,
  pendingSummariesJob,
  slackPublishedRepliesJob,
  slackApprovalMessagesJob,
  weeklySummariesJob,
  storeRatingsJob,
  zendeskOutboxJob,
];
