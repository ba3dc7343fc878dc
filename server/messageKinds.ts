/**
 * The message kinds other areas own, handed to the engine (server/monitor/messages.ts registerMessageKind): the engine
 * queues and sends them without importing their areas. A new kind is one line here. Registered before the engine
 * sends anything: by `npm start` (server/main.ts) and `npm run worker` (server/monitor/workerProcess.ts) before their
 * background jobs start, and by the API and worker tests' setup file (tests/helpers/messageKindsSetup.ts).
 */
import { registerMessageKind, type MessageKind } from './monitor/messages';
import { alertMessageKind } from './alerts/message';
import { weeklySummaryMessageKind } from './insights/weeklyMessage';

export const MESSAGE_KINDS: readonly MessageKind[] = [alertMessageKind, weeklySummaryMessageKind];

export function registerMessageKinds(): void {
  for (const kind of MESSAGE_KINDS) registerMessageKind(kind);
}
