/**
 * Zendesk for the end-to-end run: the loopback Support API (tests/fakes/zendesk.ts) that the server reaches through
 * ZENDESK_BASE_URL, and control routes where a test does what an admin and an agent do in Zendesk itself:
 *
 *   POST /__control/zendesk/agent                      → { email, api_token }   an admin agent and their API token
 *   POST /__control/zendesk/webhook   body { url }     → { signing_secret }     a webhook to `url` (what "Reveal secret"
 *                                                        shows) and the trigger ARB's setup page describes, notifying it
 *   POST /__control/zendesk/reply?ticket=<id>&agent=<email>   body { body }   → { webhook_statuses }   a public comment
 *   POST /__control/zendesk/solve?ticket=<id>&agent=<email>                   → { webhook_statuses }   the ticket solved
 *   GET  /__control/zendesk/ticket?id=<id>             → the ticket with its comments
 *
 * The triggers fire as Zendesk's do (signed with the webhook's secret, for tickets tagged `arb`); `webhook_statuses`
 * are the HTTP statuses ARB answered them with.
 */
import { json, startFakeServer, type FakeHandler } from '../../fakes/http';
import { createZendesk, newSigningSecret, zendeskRoutes } from '../../fakes/zendesk';
import { ZENDESK_TRIGGER_BODY } from '../../../shared/zendesk';

export type ZendeskWorld = { env: Record<string, string>; control: FakeHandler; close(): Promise<void> };

let nextAgent = 0;

export async function startZendeskFake(): Promise<ZendeskWorld> {
  const zd = createZendesk();
  const server = await startFakeServer([zendeskRoutes(zd)]);

  const control: FakeHandler = async (req, res) => {
    if (!req.path.startsWith('/__control/zendesk/')) return false;
    const what = req.path.slice('/__control/zendesk/'.length);
    const body = JSON.parse(req.body || '{}') as { url?: string; body?: string };
    if (req.method === 'POST' && what === 'agent') {
      const agent = zd.addUser({ email: `agent${++nextAgent}-${Date.now().toString(36)}@support.example.com`, name: `Agent ${nextAgent}`, role: 'admin' });
      return json(res, 200, { email: agent.email, api_token: agent.token }), true;
    }
    if (req.method === 'POST' && what === 'webhook') {
      if (!body.url) return json(res, 400, { error: 'url is required' }), true;
      const secret = newSigningSecret();
      zd.addTrigger({ url: body.url, secret, body: ZENDESK_TRIGGER_BODY });
      return json(res, 200, { signing_secret: secret }), true;
    }
    if (req.method === 'GET' && what === 'ticket') {
      const ticket = zd.tickets.find((t) => t.id === Number(req.query.get('id')));
      return ticket ? (json(res, 200, ticket), true) : (json(res, 404, { error: `no ticket ${req.query.get('id')}` }), true);
    }
    if (req.method === 'POST' && (what === 'reply' || what === 'solve')) {
      const ticket = zd.tickets.find((t) => t.id === Number(req.query.get('ticket')));
      const agent = zd.users.find((u) => u.email === req.query.get('agent'));
      if (!ticket || !agent) return json(res, 404, { error: `no ticket ${req.query.get('ticket')} or agent ${req.query.get('agent')}` }), true;
      // Every trigger fires (as in Zendesk, where each checks its own conditions): a retried test's webhook answers too.
      const answers = what === 'reply' ? await zd.agentReply(ticket.id, body.body ?? '', agent) : await zd.solve(ticket.id, agent);
      return json(res, 200, { webhook_statuses: answers.map((a) => a.status) }), true;
    }
    return json(res, 404, { error: `no control route ${req.method} ${req.path}` }), true;
  };

  return { env: { ZENDESK_BASE_URL: server.url }, control, close: () => server.close() };
}

type Agent = { email: string; api_token: string };
type Ticket = { id: number; status: string; tags: string[]; comments: Array<{ public: boolean; body: string }> };

/** The tests' side of the routes above. */
export class ZendeskControl {
  constructor(private readonly url: string) {}

  private async send<T>(method: 'GET' | 'POST', path: string, params: Record<string, string> = {}, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}/__control/zendesk/${path}?${new URLSearchParams(params)}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = (await res.json()) as T & { error?: string };
    if (!res.ok) throw new Error(`control zendesk/${path}: ${answer.error ?? res.status}`);
    return answer;
  }

  agent(): Promise<Agent> {
    return this.send('POST', 'agent');
  }

  /** Creates the webhook (to ARB's URL) and the trigger; the signing secret Zendesk reveals for it. */
  async webhook(url: string): Promise<string> {
    return (await this.send<{ signing_secret: string }>('POST', 'webhook', {}, { url })).signing_secret;
  }

  ticket(id: number): Promise<Ticket> {
    return this.send('GET', 'ticket', { id: String(id) });
  }

  reply(ticketId: number, agent: Agent, text: string): Promise<{ webhook_statuses: number[] }> {
    return this.send('POST', 'reply', { ticket: String(ticketId), agent: agent.email }, { body: text });
  }

  solve(ticketId: number, agent: Agent): Promise<{ webhook_statuses: number[] }> {
    return this.send('POST', 'solve', { ticket: String(ticketId), agent: agent.email });
  }
}
