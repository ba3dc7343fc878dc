// Import each module that registers background jobs (see server/background.ts).
import './auth/housekeeping';
import './billing/graceJob';
import './contact/resendJob';
import './monitor/jobs';
import './monitor/housekeepingJobs';
import './replies/jobs';
import './subscriptions/jobs';
import './ai/jobs';
import './alerts/jobs';
import './insights/jobs';
import './slack/jobs';
import './insights/weeklyJobs';
export {};
