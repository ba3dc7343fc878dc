// The engine sends alerts and weekly summaries without importing their areas: each registers its builder
// (server/messageKinds.ts). A delivery kind left out of that list would be rejected at send time, so this fails first.
import { expect, test } from 'vitest';
import { MESSAGE_KINDS, registerMessageKinds } from '@/server/messageKinds';
import { unregisteredMessageKinds } from '@/server/monitor/messages';

test('every message kind the engine does not build itself is in the list, once', () => {
  registerMessageKinds();
  expect(unregisteredMessageKinds()).toEqual([]);
  const kinds = MESSAGE_KINDS.map((k) => k.kind);
  expect(new Set(kinds).size).toBe(kinds.length);
});
