/**
 * User-visible texts fixed word for word, spelling included (docs/PRODUCT.md). Kept in one place so the UI and the
 * tests say exactly the same thing.
 */
export const MESSAGES = {
  tryFreeToast: 'Start by typing name of your app',
  orgAuthFailed: 'Some Error Occured',
  redirectingToDashboard: 'Redirecting to dashboard...',
  /** The console label of auth and billing call failures. */
  authErrorLog: 'Serious Error AuthExchange',
} as const;
