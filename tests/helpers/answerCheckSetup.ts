/**
 * API and worker projects: a test during which an endpoint answered something its response schema does not describe
 * fails here, naming the endpoint and the issues (server/http/answerCheck.ts; the answer itself became a 500). The
 * API runs in the test's process (tests/helpers/api.ts), so the mismatches it found are in this process's list.
 */
import { afterEach } from 'vitest';
import { takeAnswerMismatches } from '@/server/http/answerCheck';

afterEach(() => {
  const found = takeAnswerMismatches();
  if (found.length) throw new Error(`An answer did not match its endpoint's response schema:\n${found.join('\n')}`);
});
