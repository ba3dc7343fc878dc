/**
 * Run work the first interaction does not need once the browser is idle after the page has started (and at the latest
 * after `timeoutMs`), so it never lengthens the tasks that paint and hydrate the page. Returns a cancel function, the
 * shape a React effect's clean-up takes.
 */
export function whenIdle(work: () => void, timeoutMs = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(work, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  // Safari has no requestIdleCallback: a zero timer still lets the current task (hydration) finish first.
  const timer = window.setTimeout(work, 1);
  return () => window.clearTimeout(timer);
}
