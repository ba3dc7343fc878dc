import { describe, expect, test } from 'vitest';
import {
  cleanText,
  countryLabel,
  escapeHtml,
  escapeMarkdown,
  escapeSlack,
  fitRendered,
  flagEmoji,
  headerSafe,
  languageName,
  safeLink,
  singleLine,
  stars,
  truncate,
  utf8Length,
} from '@/server/destinations/format/text';

const FAMILY = '👨‍👩‍👧‍👦'; // 7 code points, 11 UTF-16 units, one grapheme
const graphemes = (s: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].map((g) => g.segment);

describe('stars', () => {
  test('draws filled and empty stars, clamped to 0..5', () => {
    expect(stars(4)).toBe('★★★★☆');
    expect(stars(1)).toBe('★☆☆☆☆');
    expect(stars(5)).toBe('★★★★★');
    expect(stars(9)).toBe('★★★★★');
    expect(stars(-1)).toBe('☆☆☆☆☆');
  });
});

describe('truncate', () => {
  test('leaves text that fits alone', () => {
    expect(truncate('short', 10)).toBe('short');
  });

  test('ends with an ellipsis and never exceeds the limit', () => {
    const out = truncate('The quick brown fox jumps over the lazy dog', 20);
    expect(out).toBe('The quick brown fox…');
    expect(out.length).toBeLessThanOrEqual(20);
  });

  test('never splits a surrogate pair, a ZWJ sequence, a flag or combining marks', () => {
    // An odd run of regional indicators too: flags pair up from the start of the run.
    const text = `ab${FAMILY}${FAMILY}🇫🇷🇫🇷🇩e\u0301e\u0301😀😀x`;
    const original = graphemes(text);
    for (const unit of ['chars', 'bytes'] as const) {
      const size = (s: string) => (unit === 'bytes' ? utf8Length(s) : s.length);
      for (let max = 1; max <= size(text) + 1; max++) {
        const out = truncate(text, max, unit);
        expect(size(out)).toBeLessThanOrEqual(max);
        const kept = out.endsWith('…') ? out.slice(0, -1) : out;
        // What is kept is a whole number of the original's graphemes.
        const got = graphemes(kept);
        expect(got).toEqual(original.slice(0, got.length));
      }
    }
  });

  test('counts bytes when asked, never splitting a character', () => {
    const text = 'é'.repeat(10) + '日本語'.repeat(10);
    for (const max of [5, 10, 21, 30, 44]) {
      const out = truncate(text, max, 'bytes');
      expect(utf8Length(out)).toBeLessThanOrEqual(max);
      expect(out).not.toMatch(/\uFFFD/);
    }
  });

  test('a single grapheme larger than the budget (Zalgo) is cut by code points, not dropped whole', () => {
    const zalgo = 'a' + '\u0301'.repeat(500);
    const out = truncate(zalgo, 10);
    expect(out.length).toBeLessThanOrEqual(10);
    expect(out.startsWith('a')).toBe(true);
  });
});

describe('fitRendered', () => {
  test('shortens the raw text until the escaped result fits', () => {
    const raw = '*'.repeat(5000);
    const out = fitRendered(raw, 1000, escapeMarkdown);
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out.length).toBeGreaterThan(900);
    expect(out.endsWith('…')).toBe(true);
  });

  test('measures with the given size function (bytes)', () => {
    const out = fitRendered('日本語'.repeat(1000), 300, (s) => s, utf8Length);
    expect(utf8Length(out)).toBeLessThanOrEqual(300);
  });
});

describe('cleaning', () => {
  test('removes bidi overrides and isolates, control characters; keeps RTL letters and newlines', () => {
    expect(cleanText('abc\u202Efed\u202C ok\u2066x\u2069')).toBe('abcfed okx');
    expect(cleanText('שלום\r\nمرحبا\u0000\u0007')).toBe('שלום\nمرحبا');
    expect(cleanText('a\n\n\n\n\nb')).toBe('a\n\nb');
  });

  test('singleLine and headerSafe flatten line breaks (no header injection)', () => {
    expect(singleLine('Title\nwith\r\nbreaks')).toBe('Title with breaks');
    expect(headerSafe('Subject\r\nBcc: victim@example.com')).toBe('Subject Bcc: victim@example.com');
  });
});

describe('escaping', () => {
  test('Slack: & < > escaped, formatting neutralised, @ broken', () => {
    expect(escapeSlack('<!channel> & <@U1> *b* _i_ ~s~ `c` @here')).toBe('&lt;!channel&gt; &amp; &lt;@\u200BU1&gt; ∗b∗ ˍiˍ ∼s∼ ˋcˋ @\u200Bhere');
  });

  test('Markdown: inline syntax everywhere, block syntax at line starts', () => {
    expect(escapeMarkdown('[a](b) **c** `d` <e> ~f~ |g|')).toBe('\\[a\\]\\(b\\) \\*\\*c\\*\\* \\`d\\` \\<e\\> \\~f\\~ \\|g\\|');
    expect(escapeMarkdown('# h\n- item\n> quote\n1. one\nx - y # z')).toBe('\\# h\n\\- item\n\\> quote\n1\\. one\nx - y # z');
  });

  test('HTML escapes the five special characters', () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe('&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;');
  });

  test('safeLink only lets http(s) through, normalised', () => {
    expect(safeLink('https://apps.apple.com/us/app/id1?see-all=reviews')).toBe('https://apps.apple.com/us/app/id1?see-all=reviews');
    expect(safeLink('javascript:alert(1)')).toBeNull();
    expect(safeLink('https://user:pw@example.com/')).toBeNull();
    expect(safeLink('https://example.com/a b|c>')).toBe('https://example.com/a%20b%7Cc%3E');
    expect(safeLink(null)).toBeNull();
  });
});

describe('labels', () => {
  test('countries get a flag and an English name; languages a name', () => {
    expect(flagEmoji('us')).toBe('🇺🇸');
    expect(countryLabel('gb')).toBe('🇬🇧 United Kingdom');
    expect(countryLabel(null)).toBeNull();
    expect(countryLabel('usa')).toBeNull();
    expect(languageName('pt-BR')).toBe('Brazilian Portuguese');
    expect(languageName('de')).toBe('German');
  });
});
