/**
 * Ends the session on the server while the page is being left (Logout clears the browser and navigates at once).
 * A keepalive fetch outlives the page that sent it, which an ordinary request would not; the answer is not awaited.
 * Sends both tokens so an access token that ran out while the tab was idle still lets the refresh token end it.
 * Plain fetch rather than the API client: the header must not carry the HTTP client for this one call.
 */
import { apiBase } from './base';

export function endSessionOnServer(tokens: { authToken?: string; refreshToken?: string }): void {
  if (!tokens.authToken && !tokens.refreshToken) return;
  try {
    void fetch(`${apiBase()}v1/auth/logout`, {
      method: 'POST',
      keepalive: true,
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', ...(tokens.authToken ? { Authorization: `Bearer ${tokens.authToken}` } : {}) },
      body: JSON.stringify(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
    }).catch(() => undefined);
  } catch {
    /* no fetch (very old browser): the session still ends with its 30 days */
  }
}
