/**
 * ARB's own answer when the reviews do not hold one: it says so, names what it looked at, and suggests a question it
 * can answer from the stored reviews (one that drops the filters that found nothing, or a question the computed answers
 * always handle). Written by the server, never by the model.
 */
import type { Answer, AnswerInput, AnswerOutput } from './answerText';
import type { AskFilters } from './types';
import { periodWords } from './dates';

const STAR = '★';

/** The filters in words, the days always said: "1★ reviews this week (Mon 30 Nov – Wed 2 Dec) in DE", "reviews (all time)". */
export function describeFilters(f: AskFilters, now = new Date()): string {
  const parts: string[] = [];
  if (f.ratings?.length) parts.push(`${f.ratings.join('/')}${STAR}`);
  if (f.sentiment) parts.push(f.sentiment);
  parts.push('reviews');
  parts.push(f.from || f.to ? periodWords(f.from, f.to, now) : '(all time)');
  if (f.version) parts.push(`of version ${f.version}`);
  if (f.country) parts.push(`in ${f.country}`);
  if (f.language) parts.push(`in language "${f.language}"`);
  return parts.join(' ');
}

const narrowed = (f: AskFilters) => !!(f.from || f.to || f.version || f.country || f.ratings?.length || f.language || f.sentiment);

export function suggestQuestion(input: AnswerInput): string {
  const app = input.scope.apps.length === 1 ? input.scope.apps[0].title : 'my apps';
  if (narrowed(input.parsed.filters)) return `How many reviews did ${app} get in the last 30 days, and what was their average rating?`;
  if (input.parsed.intent === 'top_complaints') return `How many 1★ reviews did ${app} get in the last 30 days?`;
  return `What do people complain about most in the reviews of ${app}?`;
}

export function dontKnow(input: AnswerInput, out: AnswerOutput): Answer {
  const apps = input.scope.apps.map((a) => a.title).join(', ');
  const looked = narrowed(input.parsed.filters) ? ` among the ${describeFilters(input.parsed.filters)}` : '';
  const content = `I don't know: the stored reviews of ${apps} do not answer that${looked}. You could ask: "${suggestQuestion(input)}"`;
  out.text(content);
  return { content, citations: [], method: 'none' };
}
