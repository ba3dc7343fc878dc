import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach } from 'vitest';
import { resetStores } from './resetStores';

// Component files share their worker's modules (isolate: false), stores and the toast queue included: every test
// starts from empty ones.
afterEach(() => {
  cleanup();
  toast.remove();
  resetStores();
  localStorage.clear();
});
