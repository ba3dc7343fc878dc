/**
 * Edit a destination's filters, apps, translation language, spike alerts and weekly summary in a drawer (rsuite's,
 * loaded only on the dashboard).
 * Lists are typed comma-separated; the server checks every value and its message is shown as a toast when it refuses.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import toast from '@/lib/hotToast';
import Drawer from 'rsuite/Drawer';
import 'rsuite/Drawer/styles/index.css';
import type { OrgDestination } from '@/lib/api/destinations';
import { useChangeDestination } from '@/lib/queries/destinations';
import { errorToast } from '../common';
import styles from '../Dashboard.module.css';
import own from './Destinations.module.css';
import { listText, splitList } from './filterText';
import { PLANS } from '@/shared/plans';

/** The first plan with weekly summaries (the catalogue is the pricing page's): what the setting's hint names. */
const SUMMARIES_PLAN = PLANS.find((p) => p.features.summaries)?.name ?? null;

type Props = {
  destination: OrgDestination;
  /** Every app of the organisation (key → title): a destination may watch any of them. */
  apps: Map<string, string>;
  open: boolean;
  onClose: () => void;
};

/** A text field with its hint, read by screen readers with the field. */
function ListField(p: { id: string; label: string; value: string; onChange: (v: string) => void; placeholder?: string; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label htmlFor={p.id}>{p.label}</label>
      <input id={p.id} className={styles.input} value={p.value} placeholder={p.placeholder} onChange={(e) => p.onChange(e.target.value)} aria-describedby={`${p.id}-hint`} />
      <span id={`${p.id}-hint`} className={own.hint}>
        {p.children}
      </span>
    </div>
  );
}

export default function FiltersDrawer({ destination: d, apps, open, onClose }: Props) {
  const id = useId();
  const [ratings, setRatings] = useState<number[]>(d.filters.ratings ?? []);
  const [countries, setCountries] = useState(listText(d.filters.countries));
  const [languages, setLanguages] = useState(listText(d.filters.languages));
  const [keywords, setKeywords] = useState(listText(d.filters.keywords));
  const [appKeys, setAppKeys] = useState(d.apps.map((a) => a.app_key));
  const [translateTo, setTranslateTo] = useState(d.translate_to ?? '');
  const [spikeAlerts, setSpikeAlerts] = useState(d.spike_alerts);
  const [weeklySummaries, setWeeklySummaries] = useState(d.weekly_summaries);
  const change = useChangeDestination({
    onSuccess: () => {
      toast.success('Filters saved');
      onClose();
    },
    onError: errorToast,
  });
  const toggle = <T,>(list: T[], v: T) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate({
      id: d.id,
      change: {
        filters: { ratings: [...ratings].sort(), countries: splitList(countries), languages: splitList(languages), keywords: splitList(keywords) },
        apps: appKeys,
        translate_to: translateTo.trim() || null,
        spike_alerts: spikeAlerts,
        // Sent only when changed: a plan without summaries refuses turning it on, and must not block saving filters.
        ...(weeklySummaries !== d.weekly_summaries ? { weekly_summaries: weeklySummaries } : {}),
      },
    });
  };
  return (
    <Drawer open={open} onClose={onClose} placement="right" size="sm" aria-labelledby={`${id}-title`} closeButton={false}>
      <Drawer.Header closeButton={false}>
        <Drawer.Title id={`${id}-title`}>Filters of {d.label ?? d.target}</Drawer.Title>
      </Drawer.Header>
      <Drawer.Body>
        <form className={own.drawerForm} onSubmit={submit}>
          <p className={styles.muted}>Only reviews that match every filter are posted. Leave a field empty to take them all.</p>
          <fieldset className={own.fieldset}>
            <legend>Star ratings</legend>
            <div className={own.checks}>
              {[1, 2, 3, 4, 5].map((r) => (
                <label key={r}>
                  <input type="checkbox" checked={ratings.includes(r)} onChange={() => setRatings(toggle(ratings, r))} /> {r} {r === 1 ? 'star' : 'stars'}
                </label>
              ))}
            </div>
          </fieldset>
          <ListField id={`${id}-countries`} label="Countries" value={countries} onChange={setCountries}>
            Two-letter codes, comma-separated, e.g. us, gb. App Store storefronts added here are watched too.
          </ListField>
          <ListField id={`${id}-languages`} label="Languages" value={languages} onChange={setLanguages}>
            Codes like en, pt-br, comma-separated.
          </ListField>
          <ListField id={`${id}-keywords`} label="Keywords" value={keywords} onChange={setKeywords}>
            Post only reviews containing one of these words, comma-separated.
          </ListField>
          <fieldset className={own.fieldset}>
            <legend>Apps</legend>
            <div className={own.checks}>
              {[...apps].map(([key, title]) => (
                <label key={key}>
                  <input type="checkbox" checked={appKeys.includes(key)} onChange={() => setAppKeys(toggle(appKeys, key))} /> {title}
                </label>
              ))}
            </div>
          </fieldset>
          <ListField id={`${id}-translate`} label="Translate reviews into" value={translateTo} onChange={setTranslateTo} placeholder="e.g. en">
            A language code, or empty for none. Each review&rsquo;s message then carries its translation into that language.
          </ListField>
          <fieldset className={own.fieldset}>
            <legend>Spike alerts</legend>
            <label>
              <input type="checkbox" checked={spikeAlerts} onChange={(e) => setSpikeAlerts(e.target.checked)} aria-describedby={`${id}-spike-hint`} /> Post an alert when 1–2★
              reviews surge or the average rating drops
            </label>
            <span id={`${id}-spike-hint`} className={own.hint}>
              Compared with each app’s own last weeks, per country and version; once per episode, with the reviews that show it.
            </span>
          </fieldset>
          <fieldset className={own.fieldset}>
            <legend>Weekly summary</legend>
            <label>
              <input type="checkbox" checked={weeklySummaries} onChange={(e) => setWeeklySummaries(e.target.checked)} aria-describedby={`${id}-weekly-hint`} /> Post a
              summary of each app’s reviews every Monday
            </label>
            <span id={`${id}-weekly-hint`} className={own.hint}>
              The week before: themes with the reviews they cite (written by a language model when this server has one, labelled either way), what changed and
              each version. {SUMMARIES_PLAN ? `Included from the ${SUMMARIES_PLAN} plan.` : ''}
            </span>
          </fieldset>
          <div className={styles.row}>
            <button type="submit" className={styles.button} disabled={change.isPending || appKeys.length === 0}>
              Save filters
            </button>
            <button type="button" className={styles.quiet} onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      </Drawer.Body>
    </Drawer>
  );
}
