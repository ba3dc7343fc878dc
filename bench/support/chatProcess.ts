/**
 * The chat platforms' webhook fakes (tests/fakes/chatWebhooks.ts) in their own process, so that a delivery benchmark
 * measures ARB's side of a delivery — as in production, where the receivers are Slack's or Discord's servers — and not
 * also the receiving, parsing and checking of every message in the same event loop. Prints
 * `<webhooks base URL> <control URL>` on the first line of stdout; the control server answers
 *   POST /hook?platform=slack   → { url }: a new hook;
 *   GET  /count                 → { delivered }: messages answered with a 2xx, over all hooks;
 *   GET  /wait?n=&ms=           → { delivered }: the same, once it reaches n or after ms;
 *   GET  /delivered             → { [url]: receivedAt[] }: per hook, when each of them arrived (ms since epoch).
 */
import http from 'node:http';
import { startChatWebhooks, type ChatHook, type ChatPlatform } from '../../tests/fakes/chatWebhooks';
import { exitWithParent } from './engineBench';

async function main() {
  const chat = await startChatWebhooks();
  const hooks: ChatHook[] = [];
  // Asked every 5 ms while a run waits: a running count per hook, not a pass over every request of every run so far.
  const deliveredCount = () => hooks.reduce((s, h) => s + h.deliveredCount(), 0);
  const control = http.createServer((req, res) => {
    // A fresh connection per control request: the bench's event loop can be busy for seconds (opening PGlite), so a
    // kept-alive socket it believes open may have been closed here meanwhile ("other side closed" on its next request).
    res.setHeader('connection', 'close');
    const url = new URL(req.url ?? '/', 'http://control');
    let body: unknown;
    if (req.method === 'POST' && url.pathname === '/hook') {
      const hook = chat.hook(url.searchParams.get('platform') as ChatPlatform);
      hooks.push(hook);
      body = { url: hook.url };
    } else if (url.pathname === '/count') {
      body = { delivered: deliveredCount() };
    } else if (url.pathname === '/wait') {
      // Answers once `n` messages were delivered or after `ms`, with the count then: the bench waits for the end of a
      // run with one request instead of asking every few ms (its own requests would count as the engine's CPU).
      const n = Number(url.searchParams.get('n'));
      const until = Date.now() + Number(url.searchParams.get('ms') ?? 15_000);
      const check = () => {
        const delivered = deliveredCount();
        if (delivered >= n || Date.now() >= until) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ delivered }));
        else setTimeout(check, 5);
      };
      check();
      return;
    } else if (url.pathname === '/delivered') {
      body = Object.fromEntries(hooks.map((h) => [h.url, h.delivered().map((r) => r.receivedAt)]));
    } else {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const port = (control.address() as { port: number }).port;
  process.stdout.write(`${chat.url} http://127.0.0.1:${port}\n`);
  exitWithParent();
}

void main();
