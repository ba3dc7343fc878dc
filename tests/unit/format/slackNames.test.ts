// Slack author names keep their underscores (issue 31): escaped by Slack's own rule (& < >, mentions broken), not
// swapped for a look-alike; the review's text still neutralises its formatting characters.
import { describe, expect, test } from 'vitest';
import { formatFor } from '@/server/destinations/format';
import { escapeSlackName } from '@/server/destinations/format/text';
import type { SlackPayload } from '@/server/destinations/platforms/slack';
import { slackProblems } from './platformRules';
import { reviewInput } from './sampleReviews';

const slack = (authorName: string, body = 'Nice app') => {
  const m = formatFor('slack', { type: 'review', input: reviewInput({}, { authorName, body }) });
  if (m.kind !== 'json') throw new Error('expected JSON');
  return m.body as SlackPayload;
};
const authorField = (p: SlackPayload) => JSON.stringify(p.blocks).match(/\*Author\*\\n([^"]*)"/)?.[1];

describe('Slack author names', () => {
  test('underscores stay underscores', () => {
    const p = slack('john_doe_99', 'snake_case_text');
    expect(authorField(p)).toBe('john_doe_99');
    expect(JSON.stringify(p)).not.toContain('johnˍdoe');
    expect(JSON.stringify(p)).toContain('snakeˍcaseˍtext'); // the review's own text: formatting still neutralised
    expect(slackProblems(p)).toEqual([]);
  });

  test('the rest of Slack’s escaping still applies to names', () => {
    expect(escapeSlackName('<!channel> a_b & @here *x*')).toBe('&lt;!channel&gt; a_b &amp; @\u200Bhere ∗x∗');
    expect(authorField(slack('<@U123>_x'))).toBe('&lt;@\u200BU123&gt;_x');
  });
});
