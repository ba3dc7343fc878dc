/**
 * The App Store feed fake in its own process, so a benchmark's CPU and memory figures count ARB only. Serves
 * `APPS` apps (ids from FIRST_APP) with `REVIEWS` reviews each, plus POST /__publish?app=&n= to add reviews (to every
 * app when `app` is left out: one request, so the bench's own HTTP work stays small).
 * Prints its base URL on the first line of stdout.
 */
import { appStoreFeedRoutes, createAppStoreFeed } from '../../tests/fakes/appStoreFeed';
import { startFakeServer } from '../../tests/fakes/http';
import { exitWithParent } from './engineBench';

const APPS = Number(process.env.APPS ?? 100);
const FIRST_APP = Number(process.env.FIRST_APP ?? 7_100_000);
const REVIEWS = Number(process.env.REVIEWS ?? 50);

async function main() {
  const feed = createAppStoreFeed();
  const old = Date.now() - 86_400_000;
  for (let a = 0; a < APPS; a++) {
    for (let r = 0; r < REVIEWS; r++) feed.publish(String(FIRST_APP + a), 'us', { content: `Review ${r} of app ${a}`, updated: new Date(old + r * 1000) });
  }
  const server = await startFakeServer([
    (req, res) => {
      if (req.path !== '/__publish') return false;
      const n = Number(req.query.get('n') ?? 1);
      const app = req.query.get('app');
      const apps = app ? [app] : Array.from({ length: APPS }, (_, a) => String(FIRST_APP + a));
      for (const id of apps) {
        for (let i = 0; i < n; i++) feed.publish(id, 'us', { content: `Fresh ${i}`, updated: new Date(Date.now() + 1000 + i) });
      }
      res.end('ok');
      return true;
    },
    appStoreFeedRoutes(feed),
  ]);
  process.stdout.write(`${server.url}\n`);
  exitWithParent();
  setInterval(() => {}, 60_000); // keep serving
}

void main();
