/**
 * The search box's query, as a component that renders nothing: it is loaded when the box searches its first term
 * (with React Query and its own client) and tells the box when the search for `term` starts and what it found.
 * An empty term (emptied box, closed list) searches nothing and reports nothing.
 */
import { useEffect } from 'react';
import QueryProvider from '@/components/common/QueryProvider';
import { useAppSearchQuery } from '@/lib/queries/apps';
import type { AppSearchReport } from './useAppSearch';

type Props = { term: string; country: string; onReport: (report: AppSearchReport) => void };

function Search({ term, country, onReport }: Props) {
  const { data, isError, isFetching } = useAppSearchQuery(term, country);
  useEffect(() => {
    if (!term) return;
    if (isFetching) onReport('loading');
    else if (isError) onReport({ status: 'error', results: [], query: term });
    else if (data) onReport({ status: 'done', results: data.results, query: data.term, failed: data.failed });
  }, [term, isFetching, isError, data, onReport]);
  return null;
}

export default function LiveSearch(props: Props) {
  return (
    <QueryProvider>
      <Search {...props} />
    </QueryProvider>
  );
}
