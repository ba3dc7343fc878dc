/**
 * "Store credentials" of one app: a drawer with the form of its store — App Store Connect (issuer id, key id, the .p8
 * file) or Google Play (the service account's .json key) — pasted or read from a file. The server checks them with one
 * call to the store before saving; its refusal (in the store's words) is the error toast. Stored credentials are never
 * shown again: the drawer says which (key id or account) and when they were checked, and offers to remove them.
 */
import { useId, useState, type ChangeEvent } from 'react';
import toast from '@/lib/hotToast';
import { Drawer } from 'rsuite';
import 'rsuite/Drawer/styles/index.css';
import type { AppCredentials, OrgApp } from '@/lib/api/orgApps';
import { useRemoveAppCredentials, useSetAppCredentials } from '@/lib/queries/orgApps';
import { ConfirmButton, dateTime, errorToast } from '../common';
import styles from '../Dashboard.module.css';
import own from './Apps.module.css';

/** Reads the chosen file's text into `set` (a .p8 or .json key is a few kilobytes). */
function fileInto(set: (text: string) => void) {
  return (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) void file.text().then(set);
  };
}

/** A labelled field with its hint; with `accept`, a textarea for a key file and a file input to read one. */
function Field(o: { label: string; hint: string; value: string; onChange: (v: string) => void; placeholder: string; accept?: string }) {
  const id = useId();
  const common = {
    id,
    autoComplete: 'off',
    spellCheck: false,
    placeholder: o.placeholder,
    value: o.value,
    'aria-describedby': `${id}-hint`,
    required: true,
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{o.label}</label>
      {o.accept ? (
        <textarea {...common} className={`${styles.input} ${own.keyText}`} rows={6} onChange={(e) => o.onChange(e.target.value)} />
      ) : (
        <input {...common} className={styles.input} onChange={(e) => o.onChange(e.target.value)} />
      )}
      <span id={`${id}-hint`} className={styles.muted}>
        {o.hint}
        {o.accept ? (
          <>
            {' '}
            <label className={own.fileLabel}>
              Or choose the file: <input type="file" accept={o.accept} onChange={fileInto(o.onChange)} />
            </label>
          </>
        ) : null}
      </span>
    </div>
  );
}

export default function CredentialsDrawer({ app, onClose }: { app: OrgApp | null; onClose: () => void }) {
  const [issuerId, setIssuerId] = useState('');
  const [keyId, setKeyId] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const [serviceAccount, setServiceAccount] = useState('');
  const close = () => {
    // The pasted key is not kept in the page once the drawer closes.
    setIssuerId('');
    setKeyId('');
    setPrivateKey('');
    setServiceAccount('');
    onClose();
  };
  const save = useSetAppCredentials({
    onSuccess: (saved) => {
      toast.success(`Store credentials checked and saved for ${saved.title}`);
      setPrivateKey('');
      setServiceAccount('');
    },
    onError: errorToast,
  });
  const remove = useRemoveAppCredentials({ onSuccess: () => toast.success('Store credentials removed'), onError: errorToast });
  const ios = app?.app_store === 'apple_app_store';
  const stored = app?.credentials ?? null;

  const submit = () => {
    if (!app) return;
    const credentials: AppCredentials = ios
      ? { kind: 'app_store_connect', issuer_id: issuerId, key_id: keyId, private_key: privateKey }
      : { kind: 'google_play', service_account_json: serviceAccount };
    save.mutate({ key: app.key, credentials });
  };

  return (
    <Drawer open={app !== null} onClose={close} size="sm" placement="right">
      <Drawer.Header>
        <Drawer.Title>Store credentials{app ? ` · ${app.title}` : ''}</Drawer.Title>
      </Drawer.Header>
      <Drawer.Body className={own.drawerBody}>
        {app ? (
          <>
            <p className={styles.muted}>
              {ios
                ? 'With an App Store Connect API key, reviews are read from every country through Apple’s API instead of the public feeds.'
                : 'With a service-account key, reviews (and their edits) are read through the Google Play Developer API.'}{' '}
              The key is checked with the store, stored encrypted and never shown again.
            </p>
            {stored ? (
              <div className={own.stored} role="status">
                <p>
                  <strong>{stored.label}</strong> · Checked <time dateTime={stored.checked_at}>{dateTime(stored.checked_at)}</time>
                </p>
                <ConfirmButton
                  label={`Remove credentials of ${app.title}`}
                  pending={remove.isPending}
                  question={`Remove the store credentials of ${app.title}? Its reviews will be read from the public store pages again.`}
                  onConfirm={() => remove.mutate(app.key)}
                >
                  Remove credentials
                </ConfirmButton>
              </div>
            ) : null}
            <form
              className={own.chosen}
              aria-label={stored ? 'Replace the store credentials' : 'Store credentials'}
              onSubmit={(e) => {
                e.preventDefault();
                submit();
              }}
            >
              {ios ? (
                <>
                  <Field label="Issuer ID" hint="App Store Connect → Users and Access → Integrations, above the keys." placeholder="57246542-96fe-1a63-e053-0824d011072a" value={issuerId} onChange={setIssuerId} />
                  <Field label="Key ID" hint="The key’s Key ID (10 characters). Its role must be Admin, App Manager or Customer Support." placeholder="2X9R4HXF34" value={keyId} onChange={setKeyId} />
                  <Field label="Private key (.p8)" hint="Paste the AuthKey_….p8 file, BEGIN and END lines included." accept=".p8,.pem,text/plain" placeholder="-----BEGIN PRIVATE KEY-----" value={privateKey} onChange={setPrivateKey} />
                </>
              ) : (
                <Field
                  label="Service account key (JSON)"
                  hint="The .json key of a service account invited in Play Console with the “Reply to reviews” permission."
                  accept=".json,application/json"
                  placeholder='{ "type": "service_account", … }'
                  value={serviceAccount}
                  onChange={setServiceAccount}
                />
              )}
              <button type="submit" className={styles.button} disabled={save.isPending} aria-busy={save.isPending}>
                {save.isPending ? 'Checking with the store…' : stored ? 'Check and replace' : 'Check and save'}
              </button>
            </form>
          </>
        ) : null}
      </Drawer.Body>
    </Drawer>
  );
}
