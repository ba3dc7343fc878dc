// A rule's conditions as one predicate (server/rules/compile.ts): each condition alone, all of them together (AND),
// keywords by word form in the review's language and in its translation, phrases, and the stored JSON read back.
import { describe, expect, test } from 'vitest';
import { compileConditions, textLength, type RuleReview } from '@/server/rules/compile';
import { conditionsSchema, readRule } from '@/server/rules/schema';

const review = (over: Partial<RuleReview> = {}): RuleReview => ({
  rating: 1,
  title: null,
  body: 'I want a refund.',
  textLanguage: 'en',
  storeLanguage: 'en',
  country: 'us',
  appVersion: '2.4.1',
  sentiment: 'negative',
  tagIds: new Set(),
  translations: [],
  ...over,
});

const matches = (conditions: unknown, r: RuleReview) => compileConditions(conditionsSchema.parse(conditions))(r);

describe('rule conditions', () => {
  test('no condition: every review', () => {
    expect(matches({}, review())).toBe(true);
  });

  test('ratings', () => {
    expect(matches({ ratings: [1, 2] }, review({ rating: 2 }))).toBe(true);
    expect(matches({ ratings: [1, 2] }, review({ rating: 3 }))).toBe(false);
  });

  test('languages: the detected language or the store’s, a base code covering its regions', () => {
    expect(matches({ languages: ['de'] }, review({ textLanguage: 'de', storeLanguage: 'en' }))).toBe(true);
    expect(matches({ languages: ['pt'] }, review({ textLanguage: null, storeLanguage: 'pt-BR' }))).toBe(true);
    expect(matches({ languages: ['pt-br'] }, review({ textLanguage: null, storeLanguage: 'pt-BR' }))).toBe(true);
    expect(matches({ languages: ['pt-br'] }, review({ textLanguage: 'pt', storeLanguage: null }))).toBe(false);
    expect(matches({ languages: ['fr'] }, review())).toBe(false);
    expect(matches({ languages: ['fr'] }, review({ textLanguage: null, storeLanguage: null }))).toBe(false);
  });

  test('countries, case-insensitive; a review without a country does not match a country condition', () => {
    expect(matches({ countries: ['US', 'gb'] }, review({ country: 'us' }))).toBe(true);
    expect(matches({ countries: ['gb'] }, review({ country: 'us' }))).toBe(false);
    expect(matches({ countries: ['gb'] }, review({ country: null }))).toBe(false);
  });

  test('versions: "2.4" covers 2.4 and 2.4.x, not 2.40', () => {
    expect(matches({ versions: ['2.4'] }, review({ appVersion: '2.4.1' }))).toBe(true);
    expect(matches({ versions: ['2.4'] }, review({ appVersion: '2.4' }))).toBe(true);
    expect(matches({ versions: ['2.4'] }, review({ appVersion: '2.40' }))).toBe(false);
    expect(matches({ versions: ['2.4.1'] }, review({ appVersion: '2.4.10' }))).toBe(false);
    expect(matches({ versions: ['2.4'] }, review({ appVersion: null }))).toBe(false);
  });

  test('sentiments', () => {
    expect(matches({ sentiments: ['negative', 'mixed'] }, review({ sentiment: 'mixed' }))).toBe(true);
    expect(matches({ sentiments: ['positive'] }, review({ sentiment: 'negative' }))).toBe(false);
    expect(matches({ sentiments: ['positive'] }, review({ sentiment: null }))).toBe(false);
  });

  test('tags_any, read from the review’s current tags (a tag added by an earlier rule counts)', () => {
    const tags = new Set<string>();
    const r = review({ tagIds: tags });
    const p = compileConditions({ tags_any: ['tag_billing', 'tag_refund'] });
    expect(p(r)).toBe(false);
    tags.add('tag_refund');
    expect(p(r)).toBe(true);
  });

  test('min_length and max_length count characters of the text, trimmed (emoji and accents as one)', () => {
    expect(matches({ min_length: 5 }, review({ body: '  abcd  ' }))).toBe(false);
    expect(matches({ min_length: 4, max_length: 4 }, review({ body: '  abcd  ' }))).toBe(true);
    expect(matches({ max_length: 3 }, review({ body: '👍🏽ok' }))).toBe(false);
    expect(matches({ max_length: 4 }, review({ body: 'éé👍!' }))).toBe(true);
    expect(conditionsSchema.safeParse({ min_length: 10, max_length: 5 }).success).toBe(false);
  });

  test('textLength counts code points of the trimmed text, as spreading the string does, without the array', () => {
    const texts = ['', '   ', 'abc', ' \n tab\tbed \n', '👍🏽ok', 'éé👍!', 'e\u0301', '日本語のレビュー', '\ud83d', 'a\udc4db', '\ud83d\ud83d\udc4d', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 '];
    for (const t of texts) expect(textLength(t), JSON.stringify(t)).toBe([...t.trim()].length);
  });

  test('keywords_any matches word forms in the review’s language', () => {
    const p = compileConditions({ keywords_any: ['refund'] });
    for (const body of ['Please refund me', 'I asked for refunds twice', 'They refunded nothing', 'Refunding takes ages', 'REFUND!!!']) {
      expect(p(review({ body })), body).toBe(true);
    }
    expect(p(review({ body: 'Great app, no complaints' }))).toBe(false);
    // A word that merely contains the keyword is another word.
    expect(p(review({ body: 'nonrefundable' }))).toBe(false);
    expect(compileConditions({ keywords_any: ['crash'] })(review({ body: 'It crashes on launch' }))).toBe(true);
    expect(compileConditions({ keywords_any: ['crashing'] })(review({ body: 'It crashed again' }))).toBe(true);
  });

  test('keywords in German, French and Spanish reviews use that language’s word forms', () => {
    expect(compileConditions({ keywords_any: ['Rückerstattung'] })(review({ textLanguage: 'de', body: 'Keine Rückerstattungen, unverschämt' }))).toBe(true);
    expect(compileConditions({ keywords_any: ['abonnement'] })(review({ textLanguage: 'fr', body: 'Mes abonnements ne marchent plus' }))).toBe(true);
    expect(compileConditions({ keywords_any: ['cobrar'] })(review({ textLanguage: 'es', body: 'Me cobraron dos veces' }))).toBe(true);
  });

  test('keywords also match the review’s translation, in the translation’s language', () => {
    const german = review({ textLanguage: 'de', storeLanguage: 'de', body: 'Ich will mein Geld zurück!' });
    const p = compileConditions({ keywords_any: ['refund'] });
    expect(p(german)).toBe(false);
    expect(p({ ...german, translations: [{ language: 'en', title: null, body: 'I want a refund of my money!' }] })).toBe(true);
    expect(p({ ...german, translations: [{ language: 'en', title: 'Refunds?', body: 'I want my money back!' }] })).toBe(true);
  });

  test('a keyword of several words matches them next to each other, in word forms, within one clause', () => {
    const p = compileConditions({ keywords_any: ['sign in'] });
    expect(p(review({ body: "Can't sign in since the update" }))).toBe(true);
    expect(p(review({ body: 'Signing in fails' }))).toBe(true);
    expect(p(review({ body: 'Sign up, then in the menu nothing' }))).toBe(false);
    expect(p(review({ body: 'I tried to sign. In the end, nothing' }))).toBe(false);
    expect(p(review({ body: 'Sign. In' }))).toBe(false);
    expect(p(review({ body: 'Sign… in' }))).toBe(false);
  });

  test('Turkish text is lower-cased the Turkish way (İ → i, I → ı), every other language the root way', () => {
    const tr = (body: string) => review({ textLanguage: 'tr', body });
    expect(compileConditions({ keywords_any: ['iade'] })(tr('İADE İSTİYORUM'))).toBe(true);
    expect(compileConditions({ keywords_any: ['ışık'] })(tr('IŞIK YOK'))).toBe(true);
    expect(compileConditions({ keywords_any: ['refund'] })(review({ body: 'REFUND PLEASE' }))).toBe(true);
  });

  test('keywords_none: none of them may appear (in the text or a translation)', () => {
    const p = compileConditions({ keywords_none: ['refund', 'charge'] });
    expect(p(review({ body: 'Love it' }))).toBe(true);
    expect(p(review({ body: 'They charged me twice' }))).toBe(false);
    expect(p(review({ textLanguage: 'de', body: 'Doppelt abgebucht', translations: [{ language: 'en', title: null, body: 'Charged twice' }] }))).toBe(false);
  });

  test('the title counts as text', () => {
    expect(compileConditions({ keywords_any: ['refund'] })(review({ title: 'Refund please', body: 'Nothing works' }))).toBe(true);
  });

  test('all conditions together (AND)', () => {
    const c = { ratings: [1, 2], keywords_any: ['refund'], countries: ['us'], sentiments: ['negative'], min_length: 5 };
    expect(matches(c, review())).toBe(true);
    expect(matches(c, review({ rating: 5 }))).toBe(false);
    expect(matches(c, review({ country: 'de' }))).toBe(false);
    expect(matches(c, review({ sentiment: 'positive' }))).toBe(false);
    expect(matches(c, review({ body: 'no' }))).toBe(false);
    expect(matches(c, review({ body: 'Please fix the login' }))).toBe(false);
  });

  test('keywords in languages written without spaces', () => {
    expect(compileConditions({ keywords_any: ['返金'] })(review({ textLanguage: 'ja', body: '返金してください。' }))).toBe(true);
    expect(compileConditions({ keywords_any: ['返金'] })(review({ textLanguage: 'ja', body: 'とても良いアプリです' }))).toBe(false);
  });

  test('conditions are checked: unknown keys, bad values and empty lists are refused with words', () => {
    const bad = [
      [{ rating: [1] }, /conditions can only have/],
      [{ ratings: [0] }, /ratings must be 1 to 5/],
      [{ ratings: [] }, /at least one value/],
      [{ keywords_any: [' '] }, /cannot be empty/],
      [{ keywords_any: ['!!!'] }, /letter or digit/],
      [{ countries: ['usa'] }, /two-letter/],
      [{ sentiments: ['angry'] }, /sentiments must be among/],
      [{ min_length: -1 }, /cannot be negative/],
    ] as const;
    for (const [c, words] of bad) {
      const r = conditionsSchema.safeParse(c);
      expect(r.success, JSON.stringify(c)).toBe(false);
      expect(r.error!.issues.map((i) => i.message).join(' '), JSON.stringify(c)).toMatch(words);
    }
  });

  test('a stored rule that no longer parses acts on nothing (unreadable), instead of failing the runner', () => {
    const base = { id: 'rul_x', org_id: 'org_x', name: 'x', enabled: true, position: 0, apps: [], stop_after: false, created_at: new Date(), updated_at: new Date() };
    expect(readRule({ ...base, conditions: '{"ratings":[1]}', actions: '[{"type":"set_status","status":"done"}]' })).toMatchObject({ unreadable: false, conditions: { ratings: [1] } });
    expect(readRule({ ...base, conditions: { ratings: ['x'] }, actions: [] })).toMatchObject({ unreadable: true });
  });
});
