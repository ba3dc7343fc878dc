import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach } from 'vitest';
import { resetStores } from './resetStores';

// findBy… and waitFor give up after 5 s, not Testing Library's 1 s: the component files run beside the API suites on
// 2 cores, where a page's first render and its queries' answers took 1.5 s once (ReviewsInbox's "No notes yet.",
// CI of 2026-12-04). Something that never appears still fails, only later.
configure({ asyncUtilTimeout: 5000 });

// Component files share their worker's modules (isolate: false), stores and the toast queue included: every test
// starts from empty ones.
afterEach(() => {
  cleanup();
  toast.remove();
  resetStores();
  localStorage.clear();
});
