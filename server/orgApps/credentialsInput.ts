/**
 * The body of PUT v1/org/apps/{appKey}/credentials, read before anything is sent to a store: an App Store Connect API
 * key (issuer id, key id, the .p8 file) or a Google Play service-account JSON key. Each field is checked for the shape
 * the store gives it, and a key that does not parse is a 400 that names the field and says what to paste instead —
 * never a 500, and never the secret itself in the message.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { SourceCredentials } from '../sources/types';

/** Apple's key ids: ten upper-case letters and digits (App Store Connect → Users and Access → Integrations). */
const KEY_ID = /^[A-Z0-9]{10}$/;
const ISSUER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A .p8 file is a few hundred bytes and a service-account JSON about 2.4 KB: far more is not one. */
const MAX_KEY_CHARS = 10_000;
const MAX_JSON_CHARS = 20_000;

/** The private key of a PEM text, or why it is not one (PKCS#8 only: what Apple's .p8 and Google's JSON carry). */
function readPkcs8(pem: string): KeyObject | string {
  const text = pem.replace(/\r\n?/g, '\n').trim();
  if (/-----BEGIN (EC|RSA) PRIVATE KEY-----/.test(text)) return 'is in the older SEC1/PKCS#1 form; paste the key file exactly as the store gave it (it starts with -----BEGIN PRIVATE KEY-----).';
  if (!text.startsWith('-----BEGIN PRIVATE KEY-----') || !text.endsWith('-----END PRIVATE KEY-----')) {
    return 'must be the whole key file, from -----BEGIN PRIVATE KEY----- to -----END PRIVATE KEY-----.';
  }
  try {
    return createPrivateKey({ key: text, format: 'pem' });
  } catch {
    return 'could not be read as a private key: the text between the BEGIN and END lines is damaged or incomplete.';
  }
}

const appStoreConnect = z.object({
  kind: z.literal('app_store_connect'),
  issuer_id: z
    .string('Required (App Store Connect → Users and Access → Integrations, above the keys).')
    .trim()
    // Any 8-4-4-4-12 hex: Apple's issuer ids are not all RFC 4122 UUIDs (the one below has variant bits "e").
    .refine((v) => ISSUER_ID.test(v), 'must be the issuer id App Store Connect shows, like 57246542-96fe-1a63-e053-0824d011072a.'),
  key_id: z
    .string('Required (the "Key ID" column of the key).')
    .trim()
    .refine((v) => KEY_ID.test(v), 'must be the key\'s 10-character "Key ID", like 2X9R4HXF34.'),
  private_key: z
    .string('Required: the contents of the AuthKey_….p8 file.')
    .max(MAX_KEY_CHARS, 'too long for a .p8 key; paste the AuthKey_….p8 file only.')
    .transform((pem, ctx) => {
      const key = readPkcs8(pem);
      const problem =
        typeof key === 'string'
          ? key
          : key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1'
            ? 'is not an App Store Connect key (those are P-256 elliptic-curve keys in an AuthKey_….p8 file).'
            : null;
      if (problem) {
        ctx.addIssue({ code: 'custom', message: `${problem}` });
        return z.NEVER;
      }
      return pem.replace(/\r\n?/g, '\n').trim();
    }),
});

type ServiceAccountFile = { type?: unknown; client_email?: unknown; private_key?: unknown; token_uri?: unknown };

const googlePlay = z.object({
  kind: z.literal('google_play'),
  service_account_json: z
    .string('Required: the contents of the service account\'s .json key file.')
    .max(MAX_JSON_CHARS, 'too long for a service-account key file.')
    .superRefine((text, ctx) => {
      const fail = (why: string) => ctx.addIssue({ code: 'custom', message: `${why}` });
      let file: ServiceAccountFile;
      try {
        file = JSON.parse(text) as ServiceAccountFile;
      } catch {
        return fail('is not valid JSON; upload the .json file Google Cloud gave you when you created the key.');
      }
      if (!file || typeof file !== 'object' || Array.isArray(file)) return fail('must be a JSON object (the key file).');
      if (file.type !== 'service_account') return fail('"type" must be "service_account": this is not a service account\'s key file.');
      if (typeof file.client_email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(file.client_email)) return fail('"client_email" is missing: this is not a complete key file.');
      if (typeof file.token_uri !== 'string' || !/^https?:\/\//.test(file.token_uri)) return fail('"token_uri" is missing: this is not a complete key file.');
      if (typeof file.private_key !== 'string') return fail('"private_key" is missing: this is not a complete key file.');
      const key = readPkcs8(file.private_key);
      if (typeof key === 'string') return fail(`"private_key" ${key}`);
      if (key.asymmetricKeyType !== 'rsa') return fail('"private_key" is not an RSA key, as Google\'s service-account keys are.');
    }),
});

export const credentialsBody = z.discriminatedUnion('kind', [appStoreConnect, googlePlay], {
  error: 'must be "app_store_connect" (App Store apps) or "google_play" (Google Play apps).',
});

export type CredentialsBody = z.output<typeof credentialsBody>;
export type CredentialsKind = CredentialsBody['kind'];

/** Which store each kind of credentials is for. */
export const STORE_OF_KIND: Record<CredentialsKind, 'apple_app_store' | 'google_play_store'> = {
  app_store_connect: 'apple_app_store',
  google_play: 'google_play_store',
};

/** What the engine's source adapters take, and what is sealed at rest. */
export function sourceCredentialsOf(body: CredentialsBody): SourceCredentials {
  return body.kind === 'app_store_connect'
    ? { kind: 'appstore_connect', issuerId: body.issuer_id, keyId: body.key_id, privateKeyPem: body.private_key }
    : { kind: 'play_developer', serviceAccountJson: body.service_account_json };
}

/** The non-secret name of the credentials the dashboard shows: the key id, or the service account's address. */
export function credentialsLabel(body: CredentialsBody): string {
  if (body.kind === 'app_store_connect') return body.key_id;
  return String((JSON.parse(body.service_account_json) as ServiceAccountFile).client_email);
}
