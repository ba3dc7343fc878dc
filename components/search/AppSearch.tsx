/**
 * The home search box (docs/PRODUCT.md, Routes): a searchbox named "Search your app" that searches the App Store and Google
 * Play as the visitor types and lists the apps found. Keyboard: ↓/↑ move through the results (announced through
 * aria-activedescendant), Enter picks, Escape closes the list (a second Escape clears the text).
 * Picking an app selects it for the flow and records the app_selected event (useSelectApp).
 */
import AppIcon from '@/components/common/AppIcon';
import { useCallback, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useDismiss } from '@/components/common/useDismiss';
import type { AppSearchResult } from '@/lib/api/types';
import { APP_STORE_NAMES } from '@/shared/appStores';
import { useConnectionStore } from '@/stores/connection';
import styles from './AppSearch.module.css';
import { SEARCH_INPUT_ID } from './searchFocus';
import { failedStoresNote, IDLE_SEARCH, LiveSearch, nextSearchState, useDebouncedTerm, type AppSearchReport, type AppSearchState } from './useAppSearch';
import { useSelectApp } from './useSelectApp';

function statusText(status: string, count: number, term: string): string {
  if (status === 'loading') return 'Searching…';
  if (status === 'error') return 'Search is not available right now. Please try again in a moment.';
  if (status === 'done' && count === 0) return `No apps found for “${term}”. Try the exact name shown in the store.`;
  if (status === 'done') return `${count} ${count === 1 ? 'app' : 'apps'} found. Use the arrow keys to choose.`;
  return '';
}

export default function AppSearch({ placeholder = 'Type the name of your app, e.g. Duolingo' }: { placeholder?: string }) {
  const query = useConnectionStore((s) => s.query);
  const setQuery = useConnectionStore((s) => s.setQuery);
  const isOpen = useConnectionStore((s) => s.isOpen);
  const setIsOpen = useConnectionStore((s) => s.setIsOpen);
  const country = useConnectionStore((s) => s.selectedCountryCode);
  const selectApp = useSelectApp();
  const term = useDebouncedTerm(query, isOpen);
  const [found, setFound] = useState<AppSearchState>(IDLE_SEARCH);
  // The search code is downloaded when the first term is searched (the debounce is over), not with the page, and not
  // while the visitor is still typing: evaluating it then could hold key presses back past the debounce.
  const [searching, setSearching] = useState(false);
  if (term && !searching) setSearching(true);
  const report = useCallback((r: AppSearchReport) => setFound((s) => nextSearchState(s, r)), []);
  // An emptied box forgets the last results at once (adjusting state while rendering, as React recommends).
  if (!query.trim() && found !== IDLE_SEARCH) setFound(IDLE_SEARCH);
  const { status, results, query: answeredQuery } = found;
  const failedNote = status === 'done' ? failedStoresNote(found.failed) : null;
  const [active, setActive] = useState(-1);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const listId = useId();
  const optionId = (i: number) => `${listId}-option-${i}`;

  const closeList = useCallback(() => setIsOpen(false), [setIsOpen]);
  useDismiss(wrapperRef, isOpen, closeList);

  const showList = isOpen && query.trim() !== '' && status !== 'idle';
  const showOptions = showList && results.length > 0;

  const choose = (app: AppSearchResult) => {
    selectApp({
      id: app.app_id,
      store: app.app_store,
      title: app.title,
      developer: app.developer ?? null,
      icon: app.icon ?? null,
      rating: app.rating ?? null,
      ratings_count: app.ratings_count ?? null,
    });
    setQuery(app.title);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!results.length) return;
      event.preventDefault();
      if (!isOpen) setIsOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + results.length) % results.length);
    } else if (event.key === 'Enter') {
      if (showOptions && active >= 0 && results[active]) {
        event.preventDefault();
        choose(results[active]);
      }
    } else if (event.key === 'Escape') {
      if (isOpen) {
        event.preventDefault();
        setIsOpen(false);
        setActive(-1);
      } else if (query) {
        event.preventDefault();
        setQuery('');
      }
    }
  };

  return (
    <div ref={wrapperRef} className={styles.search}>
      <div className={styles.field}>
        <span aria-hidden="true" className={styles.magnifier}>
          ⌕
        </span>
        <input
          id={SEARCH_INPUT_ID}
          type="search"
          aria-label="Search your app"
          aria-autocomplete="list"
          aria-controls={showOptions ? listId : undefined}
          aria-activedescendant={showOptions && active >= 0 ? optionId(active) : undefined}
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          enterKeyHint="search"
          className={styles.input}
          placeholder={placeholder}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setIsOpen(true);
            setActive(-1);
          }}
          onFocus={() => {
            if (query.trim() && results.length) setIsOpen(true);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      {searching ? <LiveSearch term={term} country={country} onReport={report} /> : null}
      <div role="status" aria-live="polite" className="visually-hidden">
        {showList ? `${statusText(status, results.length, answeredQuery)}${failedNote ? ` ${failedNote}` : ''}` : ''}
      </div>
      {showList ? (
        <div className={styles.popup}>
          {showOptions ? (
            <ul id={listId} role="listbox" aria-label="Apps found" className={styles.results}>
              {results.map((app, i) => (
                <li
                  key={`${app.app_store}:${app.app_id}`}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  className={styles.result}
                  data-active={i === active || undefined}
                  // Keep focus in the input: a mousedown on the option would blur it first.
                  onMouseDown={(event) => event.preventDefault()}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => choose(app)}
                >
                  <AppIcon src={app.icon} title={app.title} size={40} className={styles.icon} fallbackClassName={styles.iconFallback} loading="lazy" />
                  <span className={styles.text}>
                    <span className={styles.title}>{app.title}</span>
                    <span className={styles.meta}>
                      {app.developer ? <span>{app.developer}</span> : null}
                      <span className={styles.store} data-store={app.app_store}>
                        {APP_STORE_NAMES[app.app_store] ?? app.app_store}
                      </span>
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className={styles.message}>{statusText(status, 0, answeredQuery || query.trim())}</p>
          )}
          {failedNote ? <p className={styles.message}>{failedNote}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
