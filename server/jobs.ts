// Import each module that registers background jobs (see server/background.ts).
import './auth/housekeeping';
import './contact/resendJob';
import './monitor/jobs';
import './subscriptions/jobs';
import './ai/jobs';
export {};
