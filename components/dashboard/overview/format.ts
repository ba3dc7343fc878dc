/** The overview's number words: changes with their sign, shares, counts, durations. Pure. */

/** "+0.3", "−1.2", "±0" (a real minus sign); `digits` after the point. */
export function signed(n: number, digits = 1): string {
  const r = Number(n.toFixed(digits));
  if (r === 0) return '±0';
  return `${r > 0 ? '+' : '−'}${Math.abs(r).toFixed(digits)}`;
}

export const percent = (share: number) => `${Math.round(share * 100)} %`;

export const count = (n: number) => n.toLocaleString();

/** A duration in words: "35 min", "3 h", "1.5 days". */
export function duration(seconds: number): string {
  const minutes = seconds / 60;
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${Math.round(minutes)} min`;
  const hours = minutes / 60;
  if (hours < 48) return `${Number(hours.toFixed(hours < 10 ? 1 : 0))} h`;
  return `${Number((hours / 24).toFixed(1))} days`;
}
