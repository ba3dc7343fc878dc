/** A rating as stars with words for screen readers, shared by the apps list and the inbox. */
export function Stars({ rating }: { rating: number }) {
  const n = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span role="img" aria-label={`${n} out of 5 stars`} style={{ color: '#b45309', letterSpacing: 1 }}>
      {'★'.repeat(n)}
      <span style={{ color: '#64748b' }}>{'☆'.repeat(5 - n)}</span>
    </span>
  );
}
