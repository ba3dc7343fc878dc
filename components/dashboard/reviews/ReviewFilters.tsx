/**
 * The inbox's search box and filters (rsuite pickers: keyboard-operable comboboxes, each named by its label). The
 * view lives in the URL; this component only reads it and asks for a new one.
 */
import { useEffect, useState } from 'react';
import { CheckPicker, DateRangePicker, SelectPicker } from 'rsuite';
import 'rsuite/CheckPicker/styles/index.css';
import 'rsuite/SelectPicker/styles/index.css';
import 'rsuite/DateRangePicker/styles/index.css';
import type { OrgApp } from '@/lib/api/orgApps';
import type { OrgMember } from '@/lib/api/org';
import type { Tag } from '@/lib/api/workflow';
import { WORKFLOW_STATUS_LABELS, WORKFLOW_STATUSES, type WorkflowStatus } from '@/shared/workflow';
import { APP_STORE_NAMES, APP_STORES, type AppStore } from '@/shared/appStores';
import type { ReviewFilters as Filters } from '@/lib/api/reviewFilters';
import { storefrontOptions } from '@/shared/storefronts';
import styles from '../Dashboard.module.css';
import own from './Reviews.module.css';

const RATINGS = [5, 4, 3, 2, 1].map((n) => ({ label: `${n} star${n === 1 ? '' : 's'}`, value: n }));
const COUNTRIES = storefrontOptions().map((c) => ({ label: c.name, value: c.code }));
const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'no', 'da', 'fi', 'pl', 'ru', 'tr', 'ja', 'ko', 'zh', 'ar', 'he', 'hi', 'id', 'th', 'vi'];
const LANGUAGE_OPTIONS = (() => {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(['en'], { type: 'language' });
  } catch {
    names = null;
  }
  return LANGUAGES.map((code) => ({ label: names?.of(code) ?? code, value: code })).sort((a, b) => a.label.localeCompare(b.label));
})();
const SENTIMENTS = [
  { label: 'Positive', value: 'positive' },
  { label: 'Neutral', value: 'neutral' },
  { label: 'Negative', value: 'negative' },
  { label: 'Mixed', value: 'mixed' },
];
const REPLIED = [
  { label: 'Replied', value: 'true' },
  { label: 'Not replied', value: 'false' },
];
const STATUSES = WORKFLOW_STATUSES.map((s) => ({ label: WORKFLOW_STATUS_LABELS[s], value: s }));
const STORES = APP_STORES.map((s) => ({ label: APP_STORE_NAMES[s], value: s }));

const SEARCH_DEBOUNCE_MS = 300;

/** YYYY-MM-DD of a picked day (the picker gives local midnight). */
const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const parseDay = (s: string) => {
  const [y, m, d] = s.split('-').map(Number);
  return new Date(y, m - 1, d);
};

function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const [synced, setSynced] = useState(value);
  // The URL changed from elsewhere (back button, a shared link): show its search.
  if (value !== synced) {
    setSynced(value);
    setText(value);
  }
  useEffect(() => {
    if (text.trim() === value) return undefined;
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <input
      type="search"
      aria-label="Search reviews"
      placeholder="Search reviews: words, “a phrase”, -without"
      className={`${styles.input} ${own.search}`}
      value={text}
      maxLength={200}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onSearch(text.trim());
      }}
    />
  );
}

type Props = { filters: Filters; apps: OrgApp[]; tags: Tag[]; members: OrgMember[]; onChange: (next: Filters) => void };

export default function ReviewFilters({ filters, apps, tags, members, onChange }: Props) {
  const set = <K extends keyof Filters>(key: K, value: Filters[K] | null | undefined) => {
    const next = { ...filters };
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0) || value === '') delete next[key];
    else next[key] = value;
    onChange(next);
  };
  const tagOptions = tags.map((t) => ({ label: t.name, value: t.id }));
  const assigneeOptions = [
    { label: 'Me', value: 'me' },
    { label: 'Nobody', value: 'none' },
    ...members.filter((m) => !m.you).map((m) => ({ label: m.name || m.email, value: m.id })),
  ];
  const appOptions = apps.map((a) => ({ label: `${a.title} (${APP_STORE_NAMES[a.app_store]})`, value: a.key }));
  return (
    <div className={own.filters}>
      <SearchBox value={filters.q ?? ''} onSearch={(q) => set('q', q)} />
      <div className={own.pickers}>
        <CheckPicker label="Status" data={STATUSES} value={filters.status ?? []} onChange={(v) => set('status', v as WorkflowStatus[])} searchable={false} />
        <CheckPicker label="Tag" data={tagOptions} value={filters.tag ?? []} onChange={(v) => set('tag', v)} searchable={tags.length > 6} />
        <SelectPicker label="Assignee" data={assigneeOptions} value={filters.assignee ?? null} onChange={(v) => set('assignee', (v as string | null) ?? undefined)} searchable={members.length > 6} />
        <CheckPicker label="App" data={appOptions} value={filters.app ?? []} onChange={(v) => set('app', v)} searchable={apps.length > 6} />
        <SelectPicker label="Store" data={STORES} value={filters.store ?? null} onChange={(v) => set('store', (v as AppStore | null) ?? undefined)} searchable={false} />
        <CheckPicker label="Rating" data={RATINGS} value={filters.rating ?? []} onChange={(v) => set('rating', [...v].sort())} searchable={false} />
        <CheckPicker label="Country" data={COUNTRIES} value={filters.country ?? []} onChange={(v) => set('country', v)} />
        <CheckPicker label="Language" data={LANGUAGE_OPTIONS} value={filters.language ?? []} onChange={(v) => set('language', v)} />
        <CheckPicker label="Sentiment" data={SENTIMENTS} value={filters.sentiment ?? []} onChange={(v) => set('sentiment', v)} searchable={false} />
        <SelectPicker label="Reply" data={REPLIED} value={filters.replied ?? null} onChange={(v) => set('replied', (v as 'true' | 'false' | null) ?? undefined)} searchable={false} />
        <DateRangePicker
          label="Date"
          value={filters.from && filters.to ? [parseDay(filters.from), parseDay(filters.to)] : null}
          onChange={(range) => {
            const next = { ...filters };
            if (range) {
              next.from = day(range[0]);
              next.to = day(range[1]);
            } else {
              delete next.from;
              delete next.to;
            }
            onChange(next);
          }}
          character=" – "
          showOneCalendar
        />
      </div>
    </div>
  );
}
