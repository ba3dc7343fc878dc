/**
 * The apps a store search found, as buttons: the site's app search (the same query over both stores as the home page)
 * for pickers that are not the home page's combobox — "Add app" in the dashboard, the app to ask about on /ask-arb.
 * The caller gives the list its name, its look (class names) and what shows while searching.
 */
import AppIcon from '@/components/common/AppIcon';
import type { ReactNode } from 'react';
import type { AppSearchResult } from '@/lib/api/types';
import { APP_STORE_NAMES } from '@/shared/appStores';
import { useAppSearchQuery } from '@/lib/queries/apps';
import { failedStoresNote } from './useAppSearch';

export type FoundAppsLook = { list: string; result: string; icon: string; iconFallback: string; text: string; title: string; meta: string; note: string };

export default function FoundApps({
  term,
  label,
  look,
  iconSize,
  searching,
  chosen,
  onChoose,
}: {
  term: string;
  label: string;
  look: FoundAppsLook;
  iconSize: number;
  searching: ReactNode;
  /** The app chosen so far, marked pressed (leave out where choosing moves on at once). */
  chosen?: AppSearchResult | null;
  onChoose: (app: AppSearchResult) => void;
}) {
  const search = useAppSearchQuery(term, 'us');
  if (!term) return null;
  if (search.isPending || (search.isFetching && search.data?.term !== term)) return <>{searching}</>;
  if (search.isError) return <p role="alert">Search is not available right now. Please try again in a moment.</p>;
  const results = search.data?.results ?? [];
  const failed = failedStoresNote(search.data?.failed);
  const failedLine = failed ? <p className={look.note}>{failed}</p> : null;
  if (results.length === 0)
    return (
      <>
        <p className={look.note}>No apps found for “{term}”. Try the exact name shown in the store.</p>
        {failedLine}
      </>
    );
  return (
    <>
    <ul className={look.list} aria-label={label}>
      {results.map((app) => (
        <li key={`${app.app_store}:${app.app_id}`}>
          <button
            type="button"
            className={look.result}
            aria-pressed={chosen === undefined ? undefined : chosen?.app_id === app.app_id && chosen.app_store === app.app_store}
            onClick={() => onChoose(app)}
          >
            <AppIcon src={app.icon} title={app.title} size={iconSize} className={look.icon} fallbackClassName={look.iconFallback} />
            <span className={look.text}>
              <span className={look.title}>{app.title}</span>
              <span className={look.meta}>
                {app.developer ? `${app.developer} · ` : ''}
                {APP_STORE_NAMES[app.app_store]}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
    {failedLine}
    </>
  );
}
