/**
 * The end-to-end fixtures (STYLE.md #13): every test talks to the one real server that globalSetup started, and reads
 * what the outside world received (e-mails, store requests) through the fakes' control API. `page.goto` and
 * `page.reload` return once the page has hydrated (support/hydration.ts): before that, a click is not what a person's
 * click would be.
 *
 *   test('…', async ({ page, control, newEmail, signIn }) => { … })
 */
import { test as base, expect, type BrowserContextOptions, type Page } from '@playwright/test';
import { ControlClient } from './support/control';
import { hydratingNavigation } from './support/hydration';
import { signInThroughUi, type SignedInUser } from './support/signIn';

export type SharedUser = SignedInUser & { storageState: BrowserContextOptions['storageState'] };

type WorkerFixtures = {
  /** One account per worker, signed in through /login once; for tests about something else than signing in. */
  sharedUser: SharedUser;
};

type TestFixtures = {
  control: ControlClient;
  /** A fresh, unique e-mail address for this test (a new user on first sign-in). */
  newEmail: (label?: string) => string;
  /** Sign in through /login with a code read from the SMTP fake; returns the user and leaves the page signed in. */
  signIn: (page: Page, options?: { email?: string; redirectTo?: string }) => Promise<SignedInUser>;
};

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite with \`npx playwright test\` (globalSetup sets it).`);
  return value;
}

let counter = 0;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  baseURL: async ({}, provide) => provide(required('E2E_BASE_URL')),
  page: async ({ page }, provide) => {
    hydratingNavigation(page);
    await provide(page);
  },
  control: async ({}, provide) => provide(new ControlClient(required('E2E_CONTROL_URL'))),
  newEmail: async ({}, provide, testInfo) => {
    await provide((label = 'user') => `${label}-${testInfo.workerIndex}-${process.pid}-${Date.now().toString(36)}-${counter++}@example.com`);
  },
  signIn: async ({ control, newEmail }, provide) => {
    await provide((page, options = {}) => signInThroughUi(page, control, { email: options.email ?? newEmail(), redirectTo: options.redirectTo }));
  },
  sharedUser: [
    async ({ browser }, provide, workerInfo) => {
      const context = await browser.newContext({ baseURL: required('E2E_BASE_URL') });
      const page = await context.newPage();
      hydratingNavigation(page);
      const email = `shared-${workerInfo.workerIndex}-${process.pid}-${Date.now().toString(36)}@example.com`;
      const user = await signInThroughUi(page, new ControlClient(required('E2E_CONTROL_URL')), { email });
      const storageState = await context.storageState();
      await context.close();
      await provide({ ...user, storageState });
    },
    { scope: 'worker' },
  ],
});

/**
 * A test whose browser context starts signed in as the worker's shared user (its arb-storage in localStorage).
 * Each test still gets its own context: logging out or editing the stored user stays inside the test.
 */
export const userTest = test.extend({
  storageState: async ({ sharedUser }, provide) => provide(sharedUser.storageState),
});

export { expect };
export { hydratingNavigation, waitForHydration } from './support/hydration';
