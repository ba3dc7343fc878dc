/**
 * Starts a workflow for each new (or edited) review of one app, by polling ARB's public API on n8n's schedule. The
 * watermark (watermark.ts) lives in the workflow's static data: the first poll after activation only notes where
 * "now" is and emits nothing; each later poll emits every review version it has not emitted, oldest first. A manual
 * run ("Fetch Test Event") answers the app's most recent review and leaves the watermark alone.
 */
import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { appLocator, searchApps } from './apps';
import { allReviews, commaList, reviewSecond, reviewsPage, type ArbReview, type ReviewFilters } from './transport';
import { advance, fromOf, isWatermark, start, type Watermark } from './watermark';

const RATINGS = [1, 2, 3, 4, 5].map((n) => ({ name: `${n} ★`, value: String(n) }));

export class ArbTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'ARB Trigger',
    name: 'arbTrigger',
    icon: 'file:arb.svg',
    group: ['trigger'],
    version: 1,
    subtitle: '=New reviews',
    description: 'Starts the workflow when an app gets a new or edited review in ARB (polling)',
    defaults: { name: 'ARB Trigger' },
    polling: true,
    inputs: [],
    outputs: ['main'],
    credentials: [{ name: 'arbApi', required: true }],
    properties: [
      appLocator(),
      {
        displayName: 'Filters',
        name: 'filters',
        type: 'collection',
        placeholder: 'Add Filter',
        default: {},
        options: [
          { displayName: 'Country', name: 'country', type: 'string', default: '', placeholder: 'us,gb', description: 'Two-letter country codes, comma-separated' },
          { displayName: 'Rating', name: 'rating', type: 'multiOptions', options: RATINGS, default: [], description: 'Only reviews with these star ratings' },
        ],
      },
      {
        displayName: 'Options',
        name: 'options',
        type: 'collection',
        placeholder: 'Add Option',
        default: {},
        options: [
          {
            displayName: 'Late Reviews Window (Minutes)',
            name: 'lateMinutes',
            type: 'number',
            typeOptions: { minValue: 0 },
            default: 60,
            description:
              'How far back each poll looks again, for reviews ARB stores after newer ones (a store feed that lags). Each review is still emitted once. 0: only the newest second.',
          },
        ],
      },
    ],
  };

  methods = { listSearch: { searchApps } };

  async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
    const app = this.getNodeParameter('app', '', { extractValue: true }) as string;
    const f = this.getNodeParameter('filters', {}) as IDataObject;
    const filters: ReviewFilters = { country: commaList(f.country), rating: commaList(f.rating) };
    const { lateMinutes = 60 } = this.getNodeParameter('options', {}) as { lateMinutes?: number };
    if (!Number.isFinite(lateMinutes) || lateMinutes < 0) throw new NodeOperationError(this.getNode(), 'Late Reviews Window must be 0 or more minutes');
    const late = Math.floor(lateMinutes * 60);

    if (this.getMode() === 'manual') {
      const newest = (await reviewsPage(this, app, filters, 1)).data;
      return newest.length ? [this.helpers.returnJsonArray(newest)] : null;
    }

    const store = this.getWorkflowStaticData('node');
    const w: Watermark | undefined = isWatermark(store.watermark) ? store.watermark : undefined;
    const read = async (from: number) => (await allReviews(this, app, { ...filters, from })).map((r) => ({ ...r, second: reviewSecond(r) }));
    if (!w) {
      const now = Math.floor(Date.now() / 1000);
      store.watermark = start(now, await read(now - late), late);
      return null;
    }
    const { emit, next } = advance(w, await read(fromOf(w, late)), late);
    store.watermark = next;
    if (emit.length === 0) return null;
    return [this.helpers.returnJsonArray(emit.map(({ second: _second, ...review }) => review as ArbReview))];
  }
}
