/**
 * The visitor's choice of app on /ask-arb: the site's app search over both stores (the same debounced term and query
 * as the home page and "Add app"), under a name of its own — the home page's "Search your app" stays unique — and
 * the apps found as buttons. Once chosen, the app is named with a button to choose another.
 */
import { useId, useState } from 'react';
import FoundApps from '@/components/search/FoundApps';
import { useDebouncedTerm } from '@/components/search/useAppSearch';
import { APP_STORE_NAMES } from '@/shared/appStores';
import type { ChatApp } from './chatStorage';
import styles from './AppPicker.module.css';

const LOOK = { list: styles.results, result: styles.result, icon: styles.icon, iconFallback: styles.icon, text: styles.resultText, title: styles.title, meta: styles.meta, note: styles.note };
const SEARCHING = (
  <p role="status" className={styles.note}>
    Searching…
  </p>
);

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
      <FoundApps
        term={term}
        label="Apps to ask about"
        look={LOOK}
        iconSize={32}
        searching={SEARCHING}
        onChoose={(a) => {
          setText('');
          onChange({ id: a.app_id, store: a.app_store, title: a.title });
        }}
      />
    </div>
  );
}
