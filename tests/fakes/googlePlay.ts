/**
 * Fake of Google Play's public store pages (play.google.com): the search page, the "more results" cluster page and
 * app details pages, rendered in the real layout by googlePlayPages.ts from a catalog that tests may extend at run
 * time. Review endpoints of the same host are other handlers' business: paths that are not ours return false.
 *
 *   const catalog = createDemoCatalog();
 *   const play = await startFakeServer([googlePlayStoreRoutes(catalog)]);
 */
import type http from 'node:http';
import type { FakeHandler, RecordedRequest } from './http';
import { matchesTerm } from './itunes';
import { renderClusterPage, renderDetailsPage, renderNotFoundPage, renderSearchPage, type PlayApp } from './googlePlayPages';

export type { PlayApp };
export type PlayCatalog = { play: PlayApp[] };

export type PlayFakeOptions = {
  /** Answer the first search page with clusters and a "see more" link, as Play does for some queries. */
  clusterSearch?: boolean;
  /** Show the EU "About these results" notice first. */
  aboutNotice?: boolean;
};

const CLUSTER_PATH = '/store/apps/collection/search_collection_more_results_cluster';

function html(res: http.ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache, no-store, max-age=0, must-revalidate' });
  res.end(body);
}

function searchResults(catalog: PlayCatalog, query: string, options: PlayFakeOptions): string {
  const q = query.trim().toLowerCase();
  const matching = catalog.play.filter((a) => matchesTerm(query, `${a.title} ${a.developer} ${a.genre}`));
  // Play puts a big card on top when the query is an app's name.
  const topApp = catalog.play.find((a) => a.title.toLowerCase() === q) ?? null;
  return renderSearchPage(query, matching, { topApp, aboutNotice: options.aboutNotice });
}

export function googlePlayStoreRoutes(catalog: PlayCatalog, options: PlayFakeOptions = {}): FakeHandler {
  return (req: RecordedRequest, res) => {
    if (req.method !== 'GET') return false;
    if (req.path === '/store/search') {
      const query = req.query.get('q') ?? '';
      // A package name typed into the search box opens that app's page.
      const exact = catalog.play.find((a) => a.appId === query.trim());
      if (exact) html(res, 200, renderDetailsPage(exact));
      else if (options.clusterSearch) html(res, 200, renderClusterPage(query));
      else html(res, 200, searchResults(catalog, query, options));
      return true;
    }
    if (req.path === CLUSTER_PATH) {
      const clp = req.query.get('clp') ?? '';
      const query = Buffer.from(clp.replace(/^ggEKCgh/, '').split(':')[0], 'base64url').toString('utf8');
      html(res, 200, searchResults(catalog, query, options));
      return true;
    }
    if (req.path === '/store/apps/details') {
      const app = catalog.play.find((a) => a.appId === req.query.get('id'));
      if (app) html(res, 200, renderDetailsPage(app));
      else html(res, 404, renderNotFoundPage());
      return true;
    }
    return false;
  };
}
