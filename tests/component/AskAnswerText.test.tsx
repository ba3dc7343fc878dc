// An Ask ARB answer's lines as blocks: "- " lines are a bulleted list, "1. " lines a numbered one, other lines
// paragraphs; the [n] citations inside list items stay buttons that open their review, and nothing becomes HTML.
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import AnswerText, { answerBlocks } from '@/components/askArb/AnswerText';
import type { AskCitation } from '@/shared/askArb';
import { render } from '@/tests/helpers/render';

const citation = (n: number): AskCitation => ({
  n,
  id: `r${n}`,
  app_store: 'google_play_store',
  app_id: 'com.example',
  author: 'Mia',
  rating: n,
  title: null,
  body: 'Login fails.',
  date: '2026-11-30T10:00:00.000Z',
  country: 'DE',
  version: '5.2.0',
  language: 'en',
  permalink: null,
});

const TEXT = [
  "Since the last version: Lantern's newest version, 5.2.0, against the one before, 5.1.10:",
  '- 5.2.0 (the newest): 2 reviews, averaging 1.5★ [1]',
  '- 5.1.10 (the one before): 2 reviews, averaging 4.5★ [2]',
  'The average fell by 3.00★.',
  '1. Fix the login',
  '2) Then the <b>crash</b>',
].join('\n');

describe('AnswerText', () => {
  test('lists render as lists, paragraphs as paragraphs, citations as buttons inside them', () => {
    const onCite = vi.fn();
    const { container } = render(<AnswerText text={TEXT} citations={[citation(1), citation(2)]} onCite={onCite} />);
    const lists = screen.getAllByRole('list');
    expect(lists.map((l) => l.tagName)).toEqual(['UL', 'OL']);
    const bullets = within(lists[0]).getAllByRole('listitem');
    expect(bullets.map((li) => li.textContent)).toEqual(['5.2.0 (the newest): 2 reviews, averaging 1.5★ [1]', '5.1.10 (the one before): 2 reviews, averaging 4.5★ [2]']);
    expect(within(lists[1]).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Fix the login', 'Then the <b>crash</b>']);
    expect(container.querySelector('b')).toBeNull(); // text, never HTML
    expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toEqual([TEXT.split('\n')[0], 'The average fell by 3.00★.']);
    fireEvent.click(within(bullets[1]).getByRole('button', { name: 'Review 2: 2 stars by Mia' }));
    expect(onCite).toHaveBeenCalledWith(expect.objectContaining({ n: 2 }));
  });

  test('a line that only looks like a list item in the middle of a sentence stays text; blank lines are dropped', () => {
    expect(answerBlocks('Ratings went from 4.5 - to 1.5\n\n- one\n- two\nend')).toEqual([
      { kind: 'p', text: 'Ratings went from 4.5 - to 1.5' },
      { kind: 'ul', items: ['one', 'two'] },
      { kind: 'p', text: 'end' },
    ]);
  });
});
