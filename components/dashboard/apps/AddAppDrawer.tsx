/**
 * "Add app": a drawer with the home page's app search (the same query over both stores, debounced the same way) and,
 * for an App Store app, the storefronts to watch (rsuite CheckPicker; the US unless chosen otherwise). The server
 * looks the app up again and answers with the server's words when it refuses.
 */
import Image from 'next/image';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { CheckPicker, Drawer } from 'rsuite';
import 'rsuite/Drawer/styles/index.css';
import 'rsuite/CheckPicker/styles/index.css';
import { useDebouncedTerm } from '@/components/search/useAppSearch';
import type { AppSearchResult } from '@/lib/api/types';
import { APP_STORE_NAMES } from '@/lib/appStores';
import { useAppSearchQuery } from '@/lib/queries/apps';
import { useAddOrgApp } from '@/lib/queries/orgApps';
import { storefrontOptions } from '@/lib/storefronts';
import { errorToast } from '../common';
import styles from '../Dashboard.module.css';
import own from './Apps.module.css';

const COUNTRY_OPTIONS = storefrontOptions().map((c) => ({ label: c.name, value: c.code }));

function Results({ term, chosen, onChoose }: { term: string; chosen: AppSearchResult | null; onChoose: (app: AppSearchResult) => void }) {
  const search = useAppSearchQuery(term, 'us');
  if (!term) return null;
  if (search.isPending || (search.isFetching && search.data?.term !== term)) {
    return (
      <div aria-busy="true" aria-label="Searching the stores" role="status">
        {[0, 1, 2].map((i) => (
          <span key={i} className={`${styles.skeleton} ${styles.skeletonRow}`} />
        ))}
      </div>
    );
  }
  if (search.isError) return <p role="alert">Search is not available right now. Please try again in a moment.</p>;
  const results = search.data?.results ?? [];
  if (results.length === 0) return <p className={styles.muted}>No apps found for “{term}”. Try the exact name shown in the store.</p>;
  return (
    <ul className={own.results} aria-label="Apps found">
      {results.map((app) => {
        const picked = chosen?.app_id === app.app_id && chosen.app_store === app.app_store;
        return (
          <li key={`${app.app_store}:${app.app_id}`}>
            <button type="button" className={own.result} aria-pressed={picked} onClick={() => onChoose(app)}>
              {app.icon ? <Image unoptimized src={app.icon} alt="" width={36} height={36} className={own.icon} /> : <span aria-hidden="true" className={own.iconFallback}>{app.title.slice(0, 1)}</span>}
              <span className={own.resultText}>
                <span className={own.resultTitle}>{app.title}</span>
                <span className={styles.muted}>
                  {app.developer ? `${app.developer} · ` : ''}
                  {APP_STORE_NAMES[app.app_store]}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export default function AddAppDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<AppSearchResult | null>(null);
  const [countries, setCountries] = useState<string[]>(['us']);
  const term = useDebouncedTerm(text, open);
  const searchId = useId();
  const close = () => {
    setText('');
    setChosen(null);
    setCountries(['us']);
    onClose();
  };
  const add = useAddOrgApp({
    onSuccess: (app) => {
      toast.success(`${app.title} added: its reviews will appear in Reviews`);
      close();
    },
    onError: errorToast,
  });
  const ios = chosen?.app_store === 'apple_app_store';
  return (
    <Drawer open={open} onClose={close} size="sm" placement="right">
      <Drawer.Header>
        <Drawer.Title>Add an app</Drawer.Title>
      </Drawer.Header>
      <Drawer.Body className={own.drawerBody}>
        <div className={styles.field}>
          <label htmlFor={searchId}>Search the App Store and Google Play</label>
          <input
            id={searchId}
            type="search"
            className={styles.input}
            autoComplete="off"
            placeholder="The app's name, e.g. Duolingo"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <Results term={term} chosen={chosen} onChoose={setChosen} />
        {chosen ? (
          <form
            className={own.chosen}
            onSubmit={(e) => {
              e.preventDefault();
              add.mutate({ app_id: chosen.app_id, app_store: chosen.app_store, ...(ios ? { countries } : {}) });
            }}
          >
            <p>
              <strong>{chosen.title}</strong> · {APP_STORE_NAMES[chosen.app_store]}
            </p>
            {ios ? (
              <div className={styles.field}>
                <CheckPicker
                  label="App Store countries"
                  data={COUNTRY_OPTIONS}
                  value={countries}
                  onChange={(v) => setCountries(v.length ? v : ['us'])}
                  searchable
                  cleanable={false}
                  block
                  container={() => document.querySelector('.rs-drawer') as HTMLElement}
                />
                <span className={styles.muted}>Reviews are read from each country you pick.</span>
              </div>
            ) : (
              <p className={styles.muted}>Google Play reviews are read in English.</p>
            )}
            <button type="submit" className={styles.button} disabled={add.isPending} aria-busy={add.isPending}>
              Add this app
            </button>
          </form>
        ) : null}
      </Drawer.Body>
    </Drawer>
  );
}
