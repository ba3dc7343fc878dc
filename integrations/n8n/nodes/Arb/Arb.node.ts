/**
 * ARB in an n8n workflow: the organisation's apps, one app's reviews (filtered, paged), one review by id, and a reply
 * to a review through the store (as the dashboard's reply: App Store Connect or Google Play, with the app's store
 * credentials saved in ARB). Every call goes through the public API with the credential's `arb_` key.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { appLocator, listApps, searchApps } from './apps';
import { allReviews, arbRequest, commaList, PAGE_MAX, toUnixSeconds, type ReviewFilters } from './transport';

const forOperation = (resource: string, operation: string[]) => ({ show: { resource: [resource], operation } });

const RATINGS = [1, 2, 3, 4, 5].map((n) => ({ name: `${n} ★`, value: String(n) }));

const reviewFields: INodeProperties[] = [
  appLocator(forOperation('review', ['getAll', 'reply'])),
  {
    displayName: 'Return All',
    name: 'returnAll',
    type: 'boolean',
    default: false,
    description: 'Whether to return all results or only up to a given limit',
    displayOptions: forOperation('review', ['getAll']),
  },
  {
    displayName: 'Limit',
    name: 'limit',
    type: 'number',
    typeOptions: { minValue: 1, maxValue: PAGE_MAX },
    default: 20,
    description: 'Max number of results to return',
    displayOptions: { show: { resource: ['review'], operation: ['getAll'], returnAll: [false] } },
  },
  {
    displayName: 'Filters',
    name: 'filters',
    type: 'collection',
    placeholder: 'Add Filter',
    default: {},
    displayOptions: forOperation('review', ['getAll']),
    options: [
      { displayName: 'Country', name: 'country', type: 'string', default: '', placeholder: 'us,gb', description: 'Two-letter country codes, comma-separated' },
      { displayName: 'Rating', name: 'rating', type: 'multiOptions', options: RATINGS, default: [], description: 'Only reviews with these star ratings' },
      { displayName: 'From', name: 'from', type: 'dateTime', default: '', description: 'Reviews written or edited at or after this time' },
      { displayName: 'To', name: 'to', type: 'dateTime', default: '', description: 'Reviews written or edited at or before this time' },
    ],
  },
  {
    displayName: 'Review ID',
    name: 'reviewId',
    type: 'string',
    required: true,
    default: '',
    description: 'The id of the review, as ARB answers it (digits)',
    displayOptions: forOperation('review', ['get', 'reply']),
  },
  {
    displayName: 'Text',
    name: 'text',
    type: 'string',
    typeOptions: { rows: 4 },
    required: true,
    default: '',
    description: 'The reply, as the store will show it (App Store: up to 5,970 characters; Google Play: 350)',
    displayOptions: forOperation('review', ['reply']),
  },
  {
    displayName: 'Options',
    name: 'replyOptions',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    displayOptions: forOperation('review', ['reply']),
    options: [
      {
        displayName: 'Save as Draft',
        name: 'draft',
        type: 'boolean',
        default: false,
        description: 'Whether to keep the text as a draft in ARB for a person to send, instead of sending it to the store',
      },
    ],
  },
];

export class Arb implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'ARB',
    name: 'arb',
    icon: 'file:arb.svg',
    group: ['transform'],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: 'Read App Store and Google Play reviews from ARB and reply to them',
    defaults: { name: 'ARB' },
    inputs: ['main'],
    outputs: ['main'],
    usableAsTool: true,
    credentials: [{ name: 'arbApi', required: true }],
    properties: [
      {
        displayName: 'Resource',
        name: 'resource',
        type: 'options',
        noDataExpression: true,
        options: [
          { name: 'App', value: 'app' },
          { name: 'Review', value: 'review' },
        ],
        default: 'review',
      },
      {
        displayName: 'Operation',
        name: 'operation',
        type: 'options',
        noDataExpression: true,
        displayOptions: { show: { resource: ['app'] } },
        options: [{ name: 'Get Many', value: 'getAll', action: "Get the organisation's apps" }],
        default: 'getAll',
      },
      {
        displayName: 'Operation',
        name: 'operation',
        type: 'options',
        noDataExpression: true,
        displayOptions: { show: { resource: ['review'] } },
        options: [
          { name: 'Get', value: 'get', action: 'Get a review' },
          { name: 'Get Many', value: 'getAll', action: "Get an app's reviews" },
          { name: 'Reply', value: 'reply', action: 'Reply to a review' },
        ],
        default: 'getAll',
      },
      ...reviewFields,
    ],
  };

  methods = { listSearch: { searchApps } };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const items = this.getInputData();
    const out: INodeExecutionData[] = [];
    const resource = this.getNodeParameter('resource', 0) as string;
    const operation = this.getNodeParameter('operation', 0) as string;
    for (let i = 0; i < items.length; i++) {
      try {
        const answers = await runOperation(this, resource, operation, i);
        out.push(...answers.map((json) => ({ json, pairedItem: { item: i } })));
      } catch (error) {
        if (!this.continueOnFail()) throw error;
        out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
      }
    }
    return [out];
  }
}

async function runOperation(ctx: IExecuteFunctions, resource: string, operation: string, i: number): Promise<IDataObject[]> {
  if (resource === 'app' && operation === 'getAll') return await listApps(ctx);
  if (resource === 'review' && operation === 'getAll') {
    const app = ctx.getNodeParameter('app', i, '', { extractValue: true }) as string;
    const returnAll = ctx.getNodeParameter('returnAll', i) as boolean;
    const limit = returnAll ? Infinity : (ctx.getNodeParameter('limit', i) as number);
    return await allReviews(ctx, app, reviewFilters(ctx, i), limit);
  }
  if (resource === 'review' && operation === 'get') {
    const id = reviewId(ctx, i);
    return [(await arbRequest<{ data: IDataObject }>(ctx, 'GET', `/api/v1/reviews/${id}`)).data];
  }
  if (resource === 'review' && operation === 'reply') {
    const app = ctx.getNodeParameter('app', i, '', { extractValue: true }) as string;
    const text = ctx.getNodeParameter('text', i) as string;
    const { draft } = ctx.getNodeParameter('replyOptions', i, {}) as { draft?: boolean };
    const body: IDataObject = draft ? { text, draft: true } : { text };
    return [(await arbRequest<{ data: IDataObject }>(ctx, 'POST', `/api/v1/apps/${encodeURIComponent(app)}/reviews/${reviewId(ctx, i)}/reply`, undefined, body)).data];
  }
  throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" is not known for ${resource}`, { itemIndex: i });
}

function reviewId(ctx: IExecuteFunctions, i: number): string {
  const id = String(ctx.getNodeParameter('reviewId', i)).trim();
  if (!/^\d{1,19}$/.test(id)) throw new NodeOperationError(ctx.getNode(), `"${id}" is not a review id: ARB's review ids are digits`, { itemIndex: i });
  return id;
}

function reviewFilters(ctx: IExecuteFunctions, i: number): ReviewFilters {
  const f = ctx.getNodeParameter('filters', i, {}) as IDataObject;
  const filters: ReviewFilters = { country: commaList(f.country), rating: commaList(f.rating) };
  for (const bound of ['from', 'to'] as const) {
    const seconds = toUnixSeconds(f[bound]);
    if (seconds !== undefined && !Number.isFinite(seconds)) {
      throw new NodeOperationError(ctx.getNode(), `${bound === 'from' ? 'From' : 'To'} is not a date: ${String(f[bound])}`, { itemIndex: i });
    }
    filters[bound] = seconds;
  }
  return filters;
}
