/**
 * The Billing page's "Choose what stays active" step. When the plan allows fewer apps or channels than the
 * organisation has (a downgrade, a failed payment past its grace period, connections claimed at sign-in), ARB pauses
 * the newest ones: nothing is deleted. The owner ticks which apps and channels stay active, up to the plan's limits,
 * and saves (PUT v1/org/billing/active): the others are paused, the ticked ones resume. Admins see what is paused.
 */
import { useState } from 'react';
import toast from '@/lib/hotToast';
import type { BillingOverview } from '@/lib/api/billing';
import { useChooseActive } from '@/lib/queries/billing';
import { limitText } from '@/shared/plans';
import { errorToast } from '../common';
import styles from '../Dashboard.module.css';
import own from './Billing.module.css';

type Items = BillingOverview['items'];
type Channel = Items['channels'][number];

/** Whether the step is needed: something is paused by the plan, or more is active than the plan allows. */
export function needsChoice(b: Pick<BillingOverview, 'items' | 'limits'>): boolean {
  const activeApps = b.items.apps.filter((a) => !a.paused).length;
  const activeChannels = b.items.channels.filter((c) => !c.paused).length;
  return (
    b.items.apps.some((a) => a.paused) ||
    b.items.channels.some((c) => c.paused) ||
    (b.limits.apps !== null && activeApps > b.limits.apps) ||
    (b.limits.channels !== null && activeChannels > b.limits.channels)
  );
}

const channelName = (c: Channel) => `${c.platform_name} · ${c.label ?? c.target_hint}`;
const toggle = (list: string[], id: string) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);

function Picker<T>(props: {
  legend: string;
  items: T[];
  idOf: (t: T) => string;
  nameOf: (t: T) => string;
  pausedOf: (t: T) => boolean;
  fixedOf?: (t: T) => boolean;
  chosen: string[];
  onChange: (next: string[]) => void;
  limit: number | null;
  editable: boolean;
}) {
  const { legend, items, idOf, nameOf, pausedOf, fixedOf, chosen, onChange, limit, editable } = props;
  const full = limit !== null && chosen.length >= limit;
  return (
    <fieldset className={own.choice}>
      <legend>{legend}</legend>
      <ul className={own.choiceList}>
        {items.map((t) => {
          const id = idOf(t);
          const fixed = fixedOf?.(t) ?? false;
          const on = fixed || chosen.includes(id);
          return (
            <li key={id}>
              <label>
                <input type="checkbox" checked={on} disabled={!editable || fixed || (!on && full)} onChange={() => onChange(toggle(chosen, id))} /> {nameOf(t)}{' '}
                <span className={styles.muted}>{fixed ? '(waiting for its e-mail confirmation)' : pausedOf(t) ? '(paused)' : '(active)'}</span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

export default function ChooseActive({ billing, canManage }: { billing: BillingOverview; canManage: boolean }) {
  const { items, limits } = billing;
  const pending = items.channels.filter((c) => c.status === 'pending_confirmation');
  const choosable = items.channels.filter((c) => c.status !== 'pending_confirmation');
  const channelRoom = limits.channels === null ? null : Math.max(0, limits.channels - pending.length);
  const [apps, setApps] = useState(() => items.apps.filter((a) => !a.paused).map((a) => a.app_key).slice(0, limits.apps ?? undefined));
  const [channels, setChannels] = useState(() => choosable.filter((c) => !c.paused).map((c) => c.id).slice(0, channelRoom ?? undefined));
  const save = useChooseActive({
    onSuccess: (r) => {
      const paused = r.paused.apps.length + r.paused.channels.length;
      const resumed = r.resumed.apps.length + r.resumed.channels.length;
      toast.success(paused || resumed ? `Saved: ${resumed} resumed, ${paused} paused. Nothing was deleted.` : 'Nothing changed.');
    },
    onError: errorToast,
  });
  return (
    <section className={styles.section} aria-labelledby="billing-choose-heading">
      <h2 id="billing-choose-heading" className={styles.sectionTitle}>
        Choose what stays active
      </h2>
      <p className={styles.muted}>
        Your {billing.plan_name} plan allows {limitText('apps', limits.apps).toLowerCase()} and {limitText('channels', limits.channels).toLowerCase()}. What is
        not chosen is paused, never deleted: its reviews, settings and history are kept, and it resumes when you upgrade.
      </p>
      <Picker
        legend={`Apps (${apps.length} of ${limits.apps ?? 'unlimited'})`}
        items={items.apps}
        idOf={(a) => a.app_key}
        nameOf={(a) => a.title}
        pausedOf={(a) => a.paused}
        chosen={apps}
        onChange={setApps}
        limit={limits.apps}
        editable={canManage}
      />
      <Picker
        legend={`Channels (${channels.length + pending.length} of ${limits.channels ?? 'unlimited'})`}
        items={[...pending, ...choosable]}
        idOf={(c) => c.id}
        nameOf={channelName}
        pausedOf={(c) => c.paused}
        fixedOf={(c) => c.status === 'pending_confirmation'}
        chosen={channels}
        onChange={setChannels}
        limit={channelRoom}
        editable={canManage}
      />
      {canManage ? (
        <button type="button" className={styles.button} disabled={save.isPending} aria-busy={save.isPending} onClick={() => save.mutate({ apps, channels })}>
          Keep these active
        </button>
      ) : (
        <p className={styles.muted}>Only the owner can choose what stays active.</p>
      )}
    </section>
  );
}
