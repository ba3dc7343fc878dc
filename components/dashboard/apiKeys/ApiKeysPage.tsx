/**
 * /dashboard/api-keys: the organisation's API keys for the public API. An admin creates one with a name; the key is
 * shown once, right then, with a copy button (the server keeps only a hash of it); the list shows each key's prefix,
 * who made it when, and its last use; revoking asks first. Members see the list only, and why.
 */
import { useId, useState, type FormEvent } from 'react';
import toast from '@/lib/hotToast';
import type { CreatedApiKey } from '@/lib/api/apiKeys';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '@/lib/queries/apiKeys';
import { useOrganisation } from '@/lib/queries/team';
import { atLeast, roleLabel } from '@/shared/orgRoles';
import { ConfirmButton, date, dateTime, errorToast, Skeleton } from '../common';
import styles from '../Dashboard.module.css';
import own from './ApiKeys.module.css';

function NewKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      toast.success('Key copied');
    } catch {
      toast.error('Copying is not allowed here: select the key and copy it.');
    }
  };
  return (
    <div className={own.created} role="region" aria-label="Your new API key">
      <p className={own.warning}>
        <strong>Copy this key now: you won’t see it again.</strong> ARB keeps only a fingerprint of it. If you lose it, revoke it and create a new one.
      </p>
      <div className={styles.row}>
        <code className={own.key} aria-label={`API key ${created.name}`}>
          {created.key}
        </code>
        <button type="button" className={styles.button} onClick={() => void copy()}>
          Copy key
        </button>
        <button type="button" className={styles.quiet} onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

function CreateKey({ onCreated }: { onCreated: (k: CreatedApiKey) => void }) {
  const id = useId();
  const [name, setName] = useState('');
  const create = useCreateApiKey({
    onSuccess: (k) => {
      setName('');
      onCreated(k);
    },
    onError: errorToast,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(name.trim());
  };
  return (
    <form className={styles.row} onSubmit={submit}>
      <div className={styles.field}>
        <label htmlFor={`${id}-name`}>Key name</label>
        <input id={`${id}-name`} className={styles.input} required maxLength={100} placeholder="e.g. Zapier" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <button type="submit" className={styles.button} disabled={create.isPending} aria-busy={create.isPending}>
        Create API key
      </button>
    </form>
  );
}

export default function ApiKeysPage() {
  const org = useOrganisation();
  const keys = useApiKeys();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const revoke = useRevokeApiKey({ onSuccess: () => toast.success('API key revoked'), onError: errorToast });
  if (org.isPending || keys.isPending) return <Skeleton rows={3} label="Loading API keys" />;
  if (org.isError) return <p role="alert">{org.error.message}</p>;
  if (keys.isError) return <p role="alert">{keys.error.message}</p>;
  const canManage = atLeast(org.data.role, 'admin');
  return (
    <>
      <section className={styles.section} aria-labelledby="keys-new-heading">
        <h2 id="keys-new-heading" className={styles.sectionTitle}>
          New key
        </h2>
        <p className={styles.muted}>A key lets a program read your organisation’s reviews through the ARB API. Give each integration its own key.</p>
        {canManage ? (
          created ? (
            <NewKey created={created} onDone={() => setCreated(null)} />
          ) : (
            <CreateKey onCreated={setCreated} />
          )
        ) : (
          <p className={styles.muted}>Only admins and the owner can create or revoke API keys. You are a {roleLabel(org.data.role).toLowerCase()}.</p>
        )}
      </section>
      <section className={styles.section} aria-labelledby="keys-heading">
        <h2 id="keys-heading" className={styles.sectionTitle}>
          Keys
        </h2>
        {keys.data.length === 0 ? (
          <p className={styles.muted}>No API keys yet.</p>
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <caption className="visually-hidden">API keys of the organisation</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Created</th>
                  <th scope="col">Created by</th>
                  <th scope="col">Last used</th>
                  {canManage ? (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {keys.data.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name}</td>
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td>{date(k.created_at)}</td>
                    {/* No creator: they have left the organisation; the key still works until someone revokes it. */}
                    <td>{k.created_by ?? 'a former member'}</td>
                    <td>{k.last_used_at ? <time dateTime={k.last_used_at}>{dateTime(k.last_used_at)}</time> : 'Never'}</td>
                    {canManage ? (
                      <td>
                        <ConfirmButton label={`Revoke ${k.name}`} pending={revoke.isPending} question={`Revoke the API key “${k.name}”? Programs using it stop working at once.`} onConfirm={() => revoke.mutate(k.id)}>
                          Revoke
                        </ConfirmButton>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
