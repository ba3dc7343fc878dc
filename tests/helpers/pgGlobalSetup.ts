// vitest globalSetup for the PostgreSQL projects: one server for the run, a fresh database per test file.
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres';

export default async function setup(project: TestProject) {
  const server = await startPostgres();
  project.provide('pgAdminUrl', server.url);
  return async () => server.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}
