/** Ask ARB's earlier turns as the model gets them: the newest that fit the token budget, in order. */
import { describe, expect, test } from 'vitest';
import { HISTORY_TOKEN_BUDGET, trimHistory } from '@/server/askArb/chat';

const turn = (role: 'user' | 'assistant', chars: number, tag: string) => ({ role, content: `${tag} ${'x'.repeat(chars - tag.length - 1)}` });

describe('trimHistory', () => {
  test('keeps everything under the budget, in order', () => {
    const turns = [turn('user', 100, 'a'), turn('assistant', 200, 'b'), turn('user', 50, 'c')];
    expect(trimHistory(turns)).toEqual(turns);
  });

  test('drops the oldest turns first once the budget is reached', () => {
    const turns = [turn('user', 4400, 'old'), turn('assistant', 4400, 'mid'), turn('user', 4400, 'new')];
    const kept = trimHistory(turns);
    expect(kept.map((t) => t.content.split(' ')[0])).toEqual(['mid', 'new']);
    expect(kept.reduce((n, t) => n + t.content.length, 0)).toBeLessThanOrEqual(HISTORY_TOKEN_BUDGET * 4);
  });

  test('a newest turn longer than the whole budget is cut to it, never dropped', () => {
    const kept = trimHistory([turn('user', 100, 'older'), turn('assistant', 50_000, 'huge')]);
    expect(kept).toHaveLength(1);
    expect(kept[0].content.startsWith('huge ')).toBe(true);
    expect(kept[0].content.length).toBeLessThanOrEqual(HISTORY_TOKEN_BUDGET * 4);
    expect(kept[0].content.endsWith('…')).toBe(true);
  });
});
