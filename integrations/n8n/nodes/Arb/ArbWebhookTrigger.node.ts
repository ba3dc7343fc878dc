/**
 * Receives ARB's signed webhooks (a "Webhook" destination in ARB pointed at this node's URL) and starts the workflow
 * with each event: `{ webhook_id, type, timestamp, data, … }`, data being the review in the public API's shape for
 * review events. Each request's Standard Webhooks signature is checked on the raw bytes with the destination's
 * secret (signature.ts); a wrong signature, a missing header or a timestamp more than 5 minutes away is answered 401
 * and starts nothing. Receivers dedupe on webhook_id: ARB sends the same id on every retry of one message.
 */
import type { IDataObject, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { verifySignature } from './signature';

const EVENTS = [
  { name: 'Review Created', value: 'review.created' },
  { name: 'Review Updated', value: 'review.updated' },
  { name: 'Test Message', value: 'review.test' },
  { name: 'Destination Connected', value: 'destination.connected' },
  { name: 'Spike Alert', value: 'alert.spike' },
  { name: 'Weekly Summary', value: 'summary.weekly' },
];

const header = (headers: IDataObject, name: string) => {
  const v = headers[name];
  return Array.isArray(v) ? String(v[0]) : typeof v === 'string' ? v : undefined;
};

export class ArbWebhookTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'ARB Webhook Trigger',
    name: 'arbWebhookTrigger',
    icon: 'file:arb.svg',
    group: ['trigger'],
    version: 1,
    description: "Starts the workflow when ARB sends a signed webhook (a review, an alert, a summary)",
    defaults: { name: 'ARB Webhook Trigger' },
    inputs: [],
    outputs: ['main'],
    credentials: [{ name: 'arbWebhookSecret', required: true }],
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'arb' }],
    properties: [
      {
        displayName: 'In ARB, add a destination of type "Webhook" with this node\'s Production URL, and save the signing secret it shows in the credential',
        name: 'notice',
        type: 'notice',
        default: '',
      },
      {
        displayName: 'Events',
        name: 'events',
        type: 'multiOptions',
        options: EVENTS,
        default: [],
        description: 'The events that start the workflow; none chosen: every event. Others are answered 200 and ignored.',
      },
    ],
  };

  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    const req = this.getRequestObject();
    const { secret } = await this.getCredentials<{ secret: string }>('arbWebhookSecret');
    const headers = this.getHeaderData() as IDataObject;
    const raw = (req as { rawBody?: Buffer }).rawBody;
    const verdict = raw
      ? verifySignature(secret, {
          id: header(headers, 'webhook-id'),
          timestamp: header(headers, 'webhook-timestamp'),
          signature: header(headers, 'webhook-signature'),
          body: raw,
        })
      : ({ ok: false, reason: 'The request has no body to verify.' } as const);
    if (!verdict.ok) {
      this.getResponseObject().status(401).json({ error: verdict.reason });
      return { noWebhookResponse: true };
    }
    const body = this.getBodyData() as IDataObject;
    const events = this.getNodeParameter('events', []) as string[];
    if (events.length > 0 && !events.includes(String(body.type))) return {};
    // The envelope as ARB sent it (type, timestamp, data and any field a later version adds), with the message's id.
    return { workflowData: [this.helpers.returnJsonArray([{ webhook_id: header(headers, 'webhook-id'), ...body }])] };
  }
}
