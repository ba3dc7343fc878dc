/**
 * API and worker projects: a test whose requests got an answer with a status the OpenAPI document does not list for
 * that operation fails, naming the operation and the status (server/http/answeredStatuses.ts). Set-up and tear-down
 * requests (beforeAll/afterAll) count for the file's first test or for the file.
 */
import { afterAll, afterEach } from 'vitest';
import { takeUndocumentedStatuses } from '@/server/http/answeredStatuses';

function failOnUndocumented(): void {
  const found = [...new Set(takeUndocumentedStatuses())];
  if (found.length) throw new Error(`Answered with a status the OpenAPI document does not list:\n${found.join('\n')}`);
}

afterEach(failOnUndocumented);
afterAll(failOnUndocumented);
