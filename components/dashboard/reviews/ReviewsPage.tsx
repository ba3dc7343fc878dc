/**
 * /dashboard/reviews: the organisation's review inbox, built for triage. Newest first, with search and filters
 * (status, tag, assignee among them) kept in the URL query (so a view is shared by its address), the count of the view,
 * cursor pages ("Load more") and the CSV export of the current view. Each review is one compact line; the current one
 * is shown whole beside the list (ReviewDetail). The keyboard: j/k move, r replies, e marks done, t tags, x selects,
 * ? shows the keys (KeyboardHelp); keys typed into a field stay in the field. Selected reviews get bulk actions (BulkBar).
 */
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import toast from '@/lib/hotToast';
import { filtersFromQuery, type ReviewFilters as Filters } from '@/lib/api/reviewFilters';
import { filtersToQuery, hasFilters } from '@/shared/reviewFilters';
import { useOrgApps } from '@/lib/queries/orgApps';
import { useExportReviews, useReviews } from '@/lib/queries/reviews';
import { useMembers } from '@/lib/queries/team';
import { useChangeReview, useTags } from '@/lib/queries/workflow';
import { errorToast, Skeleton } from '../common';
import BulkBar from './BulkBar';
import { searchTerms } from './Highlight';
import KeyboardHelp from './KeyboardHelp';
import ReviewDetail from './ReviewDetail';
import ReviewRow from './ReviewRow';
import { keyIsForTheField, resultCountText, type QueueReview } from './queue';
import styles from '../Dashboard.module.css';
import own from './Reviews.module.css';

// rsuite's pickers are loaded with the inbox, after the first paint of the page's frame.
const ReviewFilters = dynamic(() => import('./ReviewFilters'), { ssr: false, loading: () => <Skeleton rows={1} label="Loading the filters" /> });

function saveFile(file: Blob, name: string) {
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export default function ReviewsPage() {
  const router = useRouter();
  const filters = useMemo(() => filtersFromQuery(router.query), [router.query]);
  const apps = useOrgApps();
  const tags = useTags();
  const members = useMembers();
  const reviews = useReviews(filters, router.isReady);
  const exporter = useExportReviews({ onSuccess: (file) => saveFile(file, `reviews-${new Date().toISOString().slice(0, 10)}.csv`), onError: errorToast });
  const setFilters = useCallback(
    (next: Filters) => void router.replace({ pathname: router.pathname, query: filtersToQuery(next) }, undefined, { shallow: true, scroll: false }),
    [router],
  );

  const list: QueueReview[] = useMemo(() => reviews.data?.pages.flatMap((p) => p.data) ?? [], [reviews.data]);
  const terms = useMemo(() => searchTerms(filters.q), [filters.q]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [help, setHelp] = useState(false);
  const [replyRequest, setReplyRequest] = useState(0);
  const [tagRequest, setTagRequest] = useState(0);
  const rows = useRef(new Map<string, HTMLButtonElement>());
  // The current review: the one chosen while it is in the view, else the first.
  const currentIndex = Math.max(0, list.findIndex((r) => r.id === chosen));
  const current = list[currentIndex] ?? null;
  const markDone = useChangeReview({ onSuccess: () => toast.success('Marked done'), onError: errorToast });

  const select = useCallback((id: string, on: boolean) => {
    setSelected((before) => {
      const next = new Set(before);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const moveTo = useCallback(
    (index: number) => {
      const r = list[index];
      if (!r) return;
      setChosen(r.id);
      const el = rows.current.get(r.id);
      el?.focus();
      el?.scrollIntoView?.({ block: 'nearest' });
    },
    [list],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || keyIsForTheField(e)) return;
      if (e.key === '?') {
        e.preventDefault();
        setHelp(true);
        return;
      }
      if (!current) return;
      switch (e.key) {
        case 'j':
          if (currentIndex + 1 < list.length) moveTo(currentIndex + 1);
          else if (reviews.hasNextPage && !reviews.isFetchingNextPage) void reviews.fetchNextPage();
          break;
        case 'k':
          moveTo(currentIndex - 1);
          break;
        case 'r':
          setReplyRequest((n) => n + 1);
          break;
        case 'e': {
          markDone.mutate({ id: current.id, change: { status: 'done' } });
          // On to the next review (the done one may leave the view).
          const next = list[currentIndex + 1] ?? list[currentIndex - 1];
          if (next) moveTo(list.indexOf(next));
          break;
        }
        case 't':
          setTagRequest((n) => n + 1);
          break;
        case 'x':
          select(current.id, !selected.has(current.id));
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [current, currentIndex, list, moveTo, markDone, reviews, select, selected]);

  const noApps = apps.data?.length === 0;
  const shownSelected = list.filter((r) => selected.has(r.id)).map((r) => r.id);
  const allSelected = list.length > 0 && shownSelected.length === list.length;
  return (
    <>
      <section className={styles.section} aria-label="Search and filters">
        {apps.data ? (
          <ReviewFilters filters={filters} apps={apps.data} tags={tags.data ?? []} members={members.data ?? []} onChange={setFilters} />
        ) : (
          <Skeleton rows={1} label="Loading the filters" />
        )}
        <div className={own.actions}>
          <p className={own.resultCount} role="status">
            {reviews.data ? resultCountText(reviews.data.pages[0], list.length, reviews.hasNextPage) : ''}
          </p>
          <button type="button" className={styles.quiet} onClick={() => setHelp(true)} aria-haspopup="dialog">
            Keyboard shortcuts <kbd>?</kbd>
          </button>
          {hasFilters(filters) ? (
            <button type="button" className={styles.quiet} onClick={() => setFilters({})}>
              Clear filters
            </button>
          ) : null}
          <button type="button" className={styles.quiet} disabled={exporter.isPending || noApps} aria-busy={exporter.isPending} onClick={() => exporter.mutate(filters)}>
            Export CSV
          </button>
        </div>
      </section>
      {shownSelected.length ? <BulkBar ids={shownSelected} tags={tags.data ?? []} members={members.data ?? []} onClear={() => setSelected(new Set())} /> : null}
      <div className={own.inbox}>
        <section aria-label="Reviews" aria-busy={reviews.isFetching} className={own.listPane}>
          {noApps ? (
            <p className={styles.muted}>
              No apps yet: <Link href="/dashboard/apps">add an app</Link> and its reviews appear here.
            </p>
          ) : reviews.isPending ? (
            <Skeleton rows={4} label="Loading reviews" />
          ) : reviews.isError ? (
            <p role="alert">{reviews.error.message}</p>
          ) : list.length === 0 ? (
            <p className={styles.muted} role="status">
              {hasFilters(filters) ? 'No reviews match this view.' : 'No reviews yet. New reviews of your apps appear here as they are written.'}
            </p>
          ) : (
            <>
              <label className={own.selectAll}>
                <input
                  type="checkbox"
                  checked={allSelected}
                  onChange={(e) => setSelected(e.target.checked ? new Set(list.map((r) => r.id)) : new Set())}
                />
                Select all shown
              </label>
              <ol className={own.list}>
                {list.map((r) => (
                  <li key={r.id}>
                    <ReviewRow
                      ref={(el) => {
                        if (el) rows.current.set(r.id, el);
                        else rows.current.delete(r.id);
                      }}
                      review={r}
                      current={r.id === current?.id}
                      selected={selected.has(r.id)}
                      terms={terms}
                      onOpen={() => setChosen(r.id)}
                      onSelect={(on) => select(r.id, on)}
                    />
                  </li>
                ))}
              </ol>
              {reviews.isFetchingNextPage ? <Skeleton rows={2} label="Loading more reviews" /> : null}
              {reviews.hasNextPage ? (
                <button type="button" className={styles.quiet} disabled={reviews.isFetchingNextPage} onClick={() => void reviews.fetchNextPage()}>
                  Load more
                </button>
              ) : null}
            </>
          )}
        </section>
        {current ? (
          <section aria-label="Review details" className={own.detailPane}>
            <ReviewDetail
              key={current.id}
              review={current}
              app={apps.data?.find((a) => a.key === current.app_key)}
              terms={terms}
              tags={tags.data ?? []}
              members={members.data ?? []}
              replyRequest={replyRequest}
              tagRequest={tagRequest}
            />
          </section>
        ) : null}
      </div>
      <KeyboardHelp open={help} onClose={() => setHelp(false)} />
    </>
  );
}
