/**
 * The visitor's choice of app on /ask-arb: the site's app search over both stores (the same debounced term and query
 * as the home page and "Add app"), under a name of its own — the home page's "Search your app" stays unique — and
 * the apps found as buttons. Once chosen, the app is named with a button to choose another.
 */
import Image from 'next/image';
import { useId, useState } from 'react';
import { useDebouncedTerm } from '@/components/search/useAppSearch';
import type { AppSearchResult } from '@/lib/api/types';
import { APP_STORE_NAMES } from '@/lib/appStores';
import { useAppSearchQuery } from '@/lib/queries/apps';
import type { ChatApp } from './chatStorage';
import styles from './AppPicker.module.css';

function Results({ term, onChoose }: { term: string; onChoose: (app: AppSearchResult) => void }) {
  const search = useAppSearchQuery(term, 'us');
  if (!term) return null;
  if (search.isPending || (search.isFetching && search.data?.term !== term)) return <p role="status" className={styles.note}>Searching…</p>;
  if (search.isError) return <p role="alert">Search is not available right now. Please try again in a moment.</p>;
  const results = search.data?.results ?? [];
  if (results.length === 0) return <p className={styles.note}>No apps found for “{term}”. Try the exact name shown in the store.</p>;
  return (
    <ul className={styles.results} aria-label="Apps to ask about">
      {results.map((app) => (
        <li key={`${app.app_store}:${app.app_id}`}>
          <button type="button" className={styles.result} onClick={() => onChoose(app)}>
            {app.icon ? <Image unoptimized src={app.icon} alt="" width={32} height={32} className={styles.icon} /> : <span aria-hidden="true" className={styles.icon} />}
            <span className={styles.resultText}>
              <span className={styles.title}>{app.title}</span>
              <span className={styles.meta}>
                {app.developer ? `${app.developer} · ` : ''}
                {APP_STORE_NAMES[app.app_store]}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export default function AppPicker({ app, onChange, autoFocus }: { app: ChatApp | null; onChange: (app: ChatApp | null) => void; autoFocus?: boolean }) {
  const [text, setText] = useState('');
  const term = useDebouncedTerm(text, app === null);
  const id = useId();
  if (app) {
    return (
      <div className={styles.chosen}>
        <p className={styles.asking}>
          Asking about <strong>{app.title}</strong> ({APP_STORE_NAMES[app.store]})
        </p>
        <button type="button" className={styles.change} onClick={() => onChange(null)}>
          Choose another app
        </button>
      </div>
    );
  }
  return (
    <div className={styles.picker}>
      <label htmlFor={id} className={styles.label}>
        Which app should ARB look at?
      </label>
      <input
        id={id}
        type="search"
        className={styles.input}
        autoComplete="off"
        spellCheck={false}
        // The visitor pressed "Start" to get here: the first thing to do is to name the app.
        autoFocus={autoFocus}
        placeholder="The app's name, e.g. Duolingo"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <Results
        term={term}
        onChoose={(a) => {
          setText('');
          onChange({ id: a.app_id, store: a.app_store, title: a.title });
        }}
      />
    </div>
  );
}
