/**
 * The days an answer used, in words a reader can check: "this week (Mon 30 Nov – Wed 2 Dec)", "the last 30 days
 * (Tue 3 Nov – Wed 2 Dec)", "1 Oct – 15 Oct 2025". Days are UTC, as the question's dates (question.ts) and the stats
 * page cut them. Pure: the same days and `now` give the same words.
 */

const DAY_MS = 86_400_000;
const dayMs = (d: string) => Date.parse(`${d}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const WEEKDAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'UTC' });
const DAY_MONTH = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** "Mon 30 Nov", with the year when it is not `now`'s ("Sun 30 Nov 2025"). */
export function dayWords(day: string, now = new Date()): string {
  const d = new Date(dayMs(day));
  const year = d.getUTCFullYear() === now.getUTCFullYear() ? '' : ` ${d.getUTCFullYear()}`;
  return `${WEEKDAY.format(d)} ${DAY_MONTH.format(d)}${year}`;
}

/** The days themselves: "Mon 30 Nov – Wed 2 Dec", or one day. */
export const daySpan = (from: string, to: string, now = new Date()) => (from === to ? dayWords(from, now) : `${dayWords(from, now)} – ${dayWords(to, now)}`);
const span = daySpan;

/** What the days `from`–`to` (both included; either may be open) are called, relative to `now`, with the days themselves. */
export function periodWords(from: string | null | undefined, to: string | null | undefined, now = new Date()): string {
  const t = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const today = iso(t);
  if (!from && !to) return 'all time';
  if (from && !to) return `since ${dayWords(from, now)} (${span(from, today, now)})`;
  if (!from && to) return `until ${dayWords(to, now)}`;
  const f = from!;
  const e = to!;
  const days = span(f, e, now);
  const monday = t - ((now.getUTCDay() + 6) % 7) * DAY_MS;
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const lastMonthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  let name: string | undefined;
  if (f === today && e === today) name = 'today';
  else if (f === e && f === iso(t - DAY_MS)) name = 'yesterday';
  else if (e === today && f === iso(monday)) name = 'this week';
  else if (f === iso(monday - 7 * DAY_MS) && e === iso(monday - DAY_MS)) name = 'last week';
  else if (e === today && f === iso(monthStart)) name = 'this month';
  else if (f === iso(lastMonthStart) && e === iso(monthStart - DAY_MS)) name = 'last month';
  else if (e === today && f === iso(Date.UTC(now.getUTCFullYear(), 0, 1))) name = 'this year';
  else if (e === today) {
    const n = Math.round((t - dayMs(f)) / DAY_MS) + 1;
    if (n > 1) name = `the last ${n} days`;
  }
  return name ? `${name} (${days})` : days;
}
