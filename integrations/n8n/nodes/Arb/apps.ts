/**
 * The app picker every ARB node shows: a resource locator whose list is the organisation's apps (GET /api/v1/apps),
 * each shown as "Title (App Store)" or "Title (Google Play)", searchable by title, or an app id typed in
 * (`apple_app_store__123456789`, `google_play_store__com.example.app`: the `id` the apps list answers).
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodeProperties } from 'n8n-workflow';
import { arbRequest, type ArbPage } from './transport';

type ArbApp = IDataObject & { id: string; title: string; app_store: string; app_store_slug?: string; store_url?: string | null };

/** The store's name as people say it; app_store_slug is what the API answers, app_store the older servers' fallback. */
const storeName = (app: ArbApp) => app.app_store_slug ?? (app.app_store === 'google_play_store' ? 'Google Play' : 'App Store');

export const appLabel = (app: ArbApp) => `${app.title} (${storeName(app)})`;

export async function listApps(ctx: Parameters<typeof arbRequest>[0]): Promise<ArbApp[]> {
  return (await arbRequest<ArbPage<ArbApp>>(ctx, 'GET', '/api/v1/apps')).data;
}

export async function searchApps(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
  const words = (filter ?? '').trim().toLowerCase();
  const apps = (await listApps(this)).filter((a) => !words || appLabel(a).toLowerCase().includes(words) || a.id.toLowerCase().includes(words));
  return { results: apps.map((a) => ({ name: appLabel(a), value: a.id, url: a.store_url ?? undefined })) };
}

export function appLocator(displayOptions?: INodeProperties['displayOptions']): INodeProperties {
  return {
    displayName: 'App',
    name: 'app',
    type: 'resourceLocator',
    default: { mode: 'list', value: '' },
    required: true,
    description: "One of the organisation's apps in ARB",
    displayOptions,
    modes: [
      { displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchApps', searchable: true } },
      {
        displayName: 'ID',
        name: 'id',
        type: 'string',
        placeholder: 'apple_app_store__123456789',
        validation: [
          {
            type: 'regex',
            properties: { regex: '^(apple_app_store|google_play_store)__.+$', errorMessage: 'An app id is apple_app_store__<id> or google_play_store__<package>' },
          },
        ],
      },
    ],
  };
}
