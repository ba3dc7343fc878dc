/**
 * /dashboard/destinations: every channel and inbox the organisation delivers to, each as a card with its state in
 * words (what is wrong and how to fix it), last delivery and last error. Admins pause and resume, send a test message,
 * edit filters (a drawer), delete, and add destinations with the home page's connect flow. Members read: the page says
 * why they see no buttons. Roles are enforced by the server; the page only follows them.
 */
import dynamic from 'next/dynamic';
import { useId, useMemo, useState } from 'react';
import toast from '@/lib/hotToast';
import type { OrgDestination } from '@/lib/api/destinations';
import { useChangeDestination, useDeleteDestination, useDestinations, useRotateSecret, useTestDestination, destinationKeys } from '@/lib/queries/destinations';
import { useOrganisation } from '@/lib/queries/team';
import { useQueryClient } from '@tanstack/react-query';
import { atLeast, roleLabel } from '@/shared/orgRoles';
import { useConnectionStore } from '@/stores/connection';
import { ConfirmButton, dateTime, errorToast, Skeleton } from '../common';
import styles from '../Dashboard.module.css';
import own from './Destinations.module.css';
import { describeFilters } from './filterText';

// The drawers (and rsuite) load when first opened.
const FiltersDrawer = dynamic(() => import('./FiltersDrawer'), { ssr: false });
const AddDestination = dynamic(() => import('./AddDestination'), { ssr: false });
const WebhookSecret = dynamic(() => import('./WebhookSecret'), { ssr: false });

/** A new start for "Add destination": no app picked, no connection under way (the store is shared with the home page's flow). */
function startOver() {
  useConnectionStore.getState().resetConnection();
}

const STATUS_WORDS: Record<OrgDestination['status'], string> = {
  active: 'Active',
  paused: 'Paused',
  disabled: 'Disabled',
  pending_confirmation: 'Waiting for confirmation',
};

const nameOf = (d: OrgDestination) => d.label ?? d.target;

/** "Active" only once a message got through: before that, whether the first one is on its way or could not be delivered. */
function badgeOf(d: OrgDestination): { words: string; look: string } {
  if (d.status !== 'active' || d.first_message === 'delivered') return { words: STATUS_WORDS[d.status], look: d.status };
  return d.first_message === 'failed' ? { words: 'First message not delivered', look: 'disabled' } : { words: 'Waiting for the first message', look: 'pending_confirmation' };
}

function DestinationCard({ d, canManage, apps }: { d: OrgDestination; canManage: boolean; apps: Map<string, string> }) {
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const [testResult, setTestResult] = useState<string | null>(null);
  const change = useChangeDestination({ onSuccess: (r) => toast.success(r.status === 'paused' ? 'Destination paused' : 'Destination resumed'), onError: errorToast });
  const test = useTestDestination({
    onSuccess: (r) => {
      setTestResult(r.message);
      if (r.ok) toast.success('Test message sent');
      else toast.error(r.message);
    },
    onError: errorToast,
  });
  const remove = useDeleteDestination({ onSuccess: () => toast.success('Destination deleted'), onError: errorToast });
  const [newSecret, setNewSecret] = useState<string | null>(null);
  const rotate = useRotateSecret({ onSuccess: (r) => setNewSecret(r.signing_secret), onError: errorToast });
  const stopped = d.status !== 'active';
  return (
    <li>
      <article className={own.card} aria-labelledby={headingId}>
        <div className={own.cardHead}>
          <h2 id={headingId} className={own.cardTitle}>
            {d.platform_name} · {nameOf(d)}
          </h2>
          <span className={`${own.badge} ${own[badgeOf(d).look]}`}>{badgeOf(d).words}</span>
        </div>
        {d.first_delivery_problem && d.status === 'active' ? (
          <div className={own.problem}>
            <p>{d.first_delivery_problem}</p>
          </div>
        ) : null}
        {stopped && (d.status_reason || d.fix) ? (
          <div className={own.problem}>
            {d.status_reason ? <p>{d.status_reason}</p> : null}
            {d.fix ? <p>{d.fix}</p> : null}
          </div>
        ) : null}
        <dl className={own.facts}>
          <dt>Apps</dt>
          <dd>{d.apps.map((a) => a.title).join(', ') || '—'}</dd>
          {d.label ? (
            <>
              <dt>Posts to</dt>
              <dd>{d.target}</dd>
            </>
          ) : null}
          <dt>Filters</dt>
          <dd>{describeFilters(d.filters)}</dd>
          {d.translate_to ? (
            <>
              <dt>Translate into</dt>
              <dd>{d.translate_to}</dd>
            </>
          ) : null}
          <dt>Spike alerts</dt>
          <dd>{d.spike_alerts ? 'On' : 'Off'}</dd>
          <dt>Weekly summary</dt>
          <dd>{d.weekly_summaries ? 'On' : 'Off'}</dd>
          <dt>Last delivery</dt>
          <dd>{d.last_delivery_at ? <time dateTime={d.last_delivery_at}>{dateTime(d.last_delivery_at)}</time> : 'None yet'}</dd>
          {d.last_error ? (
            <>
              <dt>Last error</dt>
              <dd>
                {d.last_error}
                {d.last_error_at ? ` (${dateTime(d.last_error_at)})` : ''}
              </dd>
            </>
          ) : null}
          {d.parked ? (
            <>
              <dt>Set aside</dt>
              <dd>
                {d.parked === 1 ? '1 message' : `${d.parked} messages`}
                {d.parked_reason ? `: ${d.parked_reason}` : ''}
              </dd>
            </>
          ) : null}
          {d.warning ? (
            <>
              <dt>Note</dt>
              <dd>{d.warning}</dd>
            </>
          ) : null}
        </dl>
        {canManage ? (
          <div className={own.actions}>
            {d.status === 'pending_confirmation' ? null : (
              <button
                type="button"
                className={styles.quiet}
                disabled={change.isPending || d.cause === 'unsubscribed'}
                onClick={() => change.mutate({ id: d.id, change: { paused: d.status === 'active' } })}
              >
                {d.status === 'active' ? 'Pause' : 'Resume'}
              </button>
            )}
            <button type="button" className={styles.quiet} disabled={test.isPending || d.status === 'pending_confirmation'} aria-busy={test.isPending} onClick={() => test.mutate(d.id)}>
              Send test
            </button>
            <button type="button" className={styles.quiet} onClick={() => setEditing(true)}>
              Edit filters
            </button>
            {d.platform === 'webhook' ? (
              <ConfirmButton
                pending={rotate.isPending}
                question="Make a new signing secret? Requests are signed with it at once, so your endpoint must get the new secret right away."
                onConfirm={() => rotate.mutate(d.id)}
              >
                Rotate secret
              </ConfirmButton>
            ) : null}
            <ConfirmButton pending={remove.isPending} question={`Delete the ${d.platform_name} destination ${nameOf(d)}? It stops receiving reviews at once.`} onConfirm={() => remove.mutate(d.id)}>
              Delete
            </ConfirmButton>
          </div>
        ) : null}
        <p role="status" className={own.result}>
          {testResult}
        </p>
        {newSecret ? <WebhookSecret secret={newSecret} onDone={() => setNewSecret(null)} /> : null}
        {editing ? <FiltersDrawer destination={d} apps={apps} open={editing} onClose={() => setEditing(false)} /> : null}
      </article>
    </li>
  );
}

export default function DestinationsPage() {
  const org = useOrganisation();
  const destinations = useDestinations();
  const client = useQueryClient();
  const [adding, setAdding] = useState(false);
  // The organisation's apps: those its destinations watch (each may be moved to any of them).
  const apps = useMemo(() => new Map((destinations.data ?? []).flatMap((d) => d.apps.map((a) => [a.app_key, a.title] as const))), [destinations.data]);
  if (org.isPending || destinations.isPending) return <Skeleton rows={4} label="Loading destinations" />;
  if (org.isError) return <p role="alert">{org.error.message}</p>;
  if (destinations.isError) return <p role="alert">{destinations.error.message}</p>;
  const canManage = atLeast(org.data.role, 'admin');
  const openAdd = () => {
    startOver();
    setAdding(true);
  };
  return (
    <>
      <div className={own.header}>
        {canManage ? (
          <>
            <p className={styles.muted}>Every channel and inbox your organisation’s reviews go to.</p>
            <button type="button" className={styles.button} onClick={openAdd}>
              Add destination
            </button>
          </>
        ) : (
          <p className={styles.muted}>
            Only admins and the owner can add or change destinations. You are a {roleLabel(org.data.role).toLowerCase()}.
          </p>
        )}
      </div>
      {destinations.data.length === 0 ? (
        <p className={styles.muted}>No destinations yet. {canManage ? 'Add one to get reviews in a channel or an inbox.' : ''}</p>
      ) : (
        <ul className={own.list} aria-label="Destinations">
          {destinations.data.map((d) => (
            <DestinationCard key={d.id} d={d} canManage={canManage} apps={apps} />
          ))}
        </ul>
      )}
      {adding ? (
        <AddDestination
          open={adding}
          onClose={() => {
            setAdding(false);
            startOver();
          }}
          onConnected={() => void client.invalidateQueries({ queryKey: destinationKeys.all })}
        />
      ) : null}
    </>
  );
}
