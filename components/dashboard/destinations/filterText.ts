/** Filters in words and back: what a destination's card says, and the Edit filters form's comma-separated fields. Pure. */
import type { OrgDestination } from '@/lib/api/destinations';

export type Filters = OrgDestination['filters'];

export const listText = (values: readonly (string | number)[] | undefined) => (values ?? []).join(', ');

/** "a, b ,, c" → ['a', 'b', 'c']. */
export const splitList = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

export function describeFilters(f: Filters): string {
  const parts: string[] = [];
  if (f.ratings?.length) parts.push(`${f.ratings.join(', ')} ${f.ratings.length === 1 && f.ratings[0] === 1 ? 'star' : 'stars'}`);
  if (f.countries?.length) parts.push(f.countries.length > 6 ? `${f.countries.length} countries` : `countries ${f.countries.join(', ').toUpperCase()}`);
  if (f.languages?.length) parts.push(`languages ${f.languages.join(', ')}`);
  if (f.keywords?.length) parts.push(`containing ${f.keywords.map((k) => `“${k}”`).join(' or ')}`);
  return parts.length ? parts.join(' · ') : 'Every review';
}
