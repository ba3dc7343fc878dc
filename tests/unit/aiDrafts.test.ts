// The pure parts of reply drafts: the model's answer cleaned into reply text, a draft cut to the store's limit at a
// sentence or word (never inside a character: limits count code points, as the stores do), and the draft's language.
import { describe, expect, test } from 'vitest';
import { cleanDraft, draftLanguage, fitToLimit } from '@/server/ai/drafts';
import { replyLength } from '@/shared/replies';

describe('cleanDraft', () => {
  test.each([
    ['"Thanks, Rin!"', 'Thanks, Rin!'],
    ['“Merci beaucoup !”', 'Merci beaucoup !'],
    ['Reply: Thanks for the feedback.', 'Thanks for the feedback.'],
    ['```\nDanke!\n```', 'Danke!'],
    ['  Thanks — we "fixed" it.  ', 'Thanks — we "fixed" it.'],
    ['"Great" is what you said, and "thanks" is ours', '"Great" is what you said, and "thanks" is ours'],
  ])('%j → %j', (answer, text) => expect(cleanDraft(answer)).toBe(text));
});

describe('fitToLimit', () => {
  test('text within the limit is left as it is', () => {
    expect(fitToLimit('Short and sweet.', 350)).toBe('Short and sweet.');
  });

  test('cut after the last whole sentence that fits', () => {
    const text = 'First sentence here. Second one is here too! Third sentence goes over the limit by far.';
    expect(fitToLimit(text, 50)).toBe('First sentence here. Second one is here too!');
  });

  test('without a sentence end, cut at the last word with an ellipsis, within the limit in code points', () => {
    const text = `${'😀 word '.repeat(80)}end`;
    const out = fitToLimit(text, 100);
    expect(replyLength(out)).toBeLessThanOrEqual(100);
    expect(out.endsWith('…')).toBe(true);
    expect(out).not.toMatch(/\uD83D…$/); // no half of an emoji left before the ellipsis
    expect(out.slice(0, -1)).toBe(out.slice(0, -1).trimEnd());
  });

  test('full stops in CJK text count as sentence ends', () => {
    const text = `${'今日は良い日です。'.repeat(40)}`;
    const out = fitToLimit(text, 100);
    expect(replyLength(out)).toBeLessThanOrEqual(100);
    expect(out.endsWith('。')).toBe(true);
  });
});

test("a draft's language: the text's, else the store's (primary subtag), else English", () => {
  expect(draftLanguage({ text_language: 'de', language: 'en' })).toBe('de');
  expect(draftLanguage({ text_language: null, language: 'pt-BR' })).toBe('pt');
  expect(draftLanguage({ text_language: null, language: null })).toBe('en');
});
