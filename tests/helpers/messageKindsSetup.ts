// Setup file of the API and worker projects (vitest.config.ts): the engine these tests start, or drain by hand, learns
// the message kinds other areas own (server/messageKinds.ts) the way `npm start` and `npm run worker` do.
import { registerMessageKinds } from '@/server/messageKinds';

registerMessageKinds();
