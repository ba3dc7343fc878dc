/**
 * The one real call against the store before store credentials are saved, and its outcome in words the person who
 * pasted the key can act on. The call is the engine's own (the source adapters' check functions: the same token, the
 * same host, the same request as a poll, limited to one review), so a key that passes here is one the engine can use.
 *
 * A refusal is a 422 that says why and what to change, with the store's own reason quoted; a store that is down or slow
 * is a 502 that says to try again. Nothing is saved in either case. The key itself never appears in a message or a log.
 */
import { HttpError } from '../http/errors';
import { log } from '../log';
import { checkAppStoreConnectAccess } from '../sources/appStoreConnect';
import { checkPlayDeveloperAccess, TOKEN_SERVICE } from '../sources/playDeveloper';
import { SourceError, type SourceCredentials } from '../sources/types';

export type CheckedApp = { store: string; app_id: string; app_key: string };

const rejected = (message: string) => new HttpError(422, 'credentials_rejected', message);

/** The store's own words from a SourceError ("… answered 403: <title — detail>"), quoted, or nothing. */
function storeSaid(err: SourceError, store: string): string {
  const m = /answered \d+: (.+)$/s.exec(err.message);
  return m ? ` (${store} said: “${m[1].slice(0, 300)}”)` : '';
}

function appStoreConnectRefusal(err: SourceError, appId: string): HttpError | null {
  const said = storeSaid(err, 'App Store Connect');
  switch (err.status) {
    case 401:
      return rejected(
        `App Store Connect did not accept this key: check the issuer id and the key id (Users and Access → Integrations → App Store Connect API), and that the key was not revoked.${said}`,
      );
    case 403:
      return rejected(
        `App Store Connect accepted the key, but its role may not read customer reviews. Create a key with the Admin, App Manager or Customer Support role (those can read and answer reviews) and paste that one.${said}`,
      );
    case 404:
      return rejected(`App Store Connect has no app ${appId} for this key: the key belongs to another team's account. Use a key of the account that publishes the app.${said}`);
    default:
      return null;
  }
}

function googlePlayRefusal(err: SourceError, packageName: string, account: string): HttpError | null {
  const fromTokenEndpoint = err.message.startsWith(TOKEN_SERVICE);
  const said = storeSaid(err, 'Google');
  if (fromTokenEndpoint && (err.status === 400 || err.status === 401)) {
    return rejected(
      `Google did not accept this service-account key: it was deleted or disabled in Google Cloud, or the account no longer exists. Create a new JSON key for ${account} (IAM → Service accounts → Keys) and upload it.${said}`,
    );
  }
  switch (err.status) {
    case 401:
    case 403:
      return rejected(
        `Google accepted the service account, but it may not read this app's reviews. In Play Console → Users and permissions, invite ${account} and give it the "Reply to reviews" permission for ${packageName}; it can take a few minutes to apply.${said}`,
      );
    case 404:
      return rejected(`Google Play has no app ${packageName} in the developer account of ${account}: invite the service account in the Play Console account that publishes the app.${said}`);
    default:
      return null;
  }
}

function accountOf(credentials: SourceCredentials): string {
  if (credentials.kind !== 'play_developer') return '';
  return String((JSON.parse(credentials.serviceAccountJson) as { client_email?: unknown }).client_email ?? 'the service account');
}

/** Resolves when the store let these credentials read the app's reviews; otherwise an HttpError with plain words. */
export async function checkStoreAccess(app: CheckedApp, credentials: SourceCredentials): Promise<void> {
  const apple = credentials.kind === 'appstore_connect';
  const store = apple ? 'App Store Connect' : 'Google Play';
  try {
    if (apple) await checkAppStoreConnectAccess(credentials, app.app_id);
    else await checkPlayDeveloperAccess(credentials, app.app_id);
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    const refusal = apple ? appStoreConnectRefusal(err, app.app_id) : googlePlayRefusal(err, app.app_id, accountOf(credentials));
    if (refusal) {
      log.info('store credentials refused by the store', { app: app.app_key, status: err.status ?? null });
      throw refusal;
    }
    // The message names the service and its status or the network failure, never the key.
    log.warn('store credentials could not be checked', { app: app.app_key, error: err.message });
    if (err.permanent) throw rejected(`${store} refused the check: ${err.message}`);
    throw new HttpError(
      502,
      'store_unavailable',
      `${store} could not be reached to check the credentials just now (${err.message}). Nothing was saved: try again in a few minutes.`,
    );
  }
}
