/**
 * "Add app": a drawer with the home page's app search (the same query over both stores, debounced the same way) and,
 * for an App Store app, the storefronts to watch (rsuite CheckPicker; the US unless chosen otherwise). The server
 * looks the app up again and answers with the server's words when it refuses.
 */
import { useId, useState } from 'react';
import toast from '@/lib/hotToast';
import { CheckPicker, Drawer } from 'rsuite';
import 'rsuite/Drawer/styles/index.css';
import 'rsuite/CheckPicker/styles/index.css';
import FoundApps from '@/components/search/FoundApps';
import { useDebouncedTerm } from '@/components/search/useAppSearch';
import type { AppSearchResult } from '@/lib/api/types';
import { APP_STORE_NAMES } from '@/shared/appStores';
import { useAddOrgApp } from '@/lib/queries/orgApps';
import { storefrontOptions } from '@/shared/storefronts';
import { errorToast } from '../common';
import KeepEscapeInPicker from '../KeepEscapeInPicker';
import styles from '../Dashboard.module.css';
import own from './Apps.module.css';

const COUNTRY_OPTIONS = storefrontOptions().map((c) => ({ label: c.name, value: c.code }));

const FOUND_LOOK = { list: own.results, result: own.result, icon: own.icon, iconFallback: own.iconFallback, text: own.resultText, title: own.resultTitle, meta: styles.muted, note: styles.muted };
const SEARCHING = (
  <div aria-busy="true" aria-label="Searching the stores" role="status">
    {[0, 1, 2].map((i) => (
      <span key={i} className={`${styles.skeleton} ${styles.skeletonRow}`} />
    ))}
  </div>
);

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
        <FoundApps term={term} label="Apps found" look={FOUND_LOOK} iconSize={36} searching={SEARCHING} chosen={chosen} onChoose={setChosen} />
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
              <KeepEscapeInPicker className={styles.field}>
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
              </KeepEscapeInPicker>
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
