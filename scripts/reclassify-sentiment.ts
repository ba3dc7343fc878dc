// Re-reads the sentiment of the reviews already stored with today's rule (server/ai/enrich/reclassify.ts): run once
// after an upgrade that changes the rule, against the database the server uses (same environment: DATABASE_URL or
// DATA_DIR). `npx tsx scripts/reclassify-sentiment.ts`
import { closeDb } from '../server/db/client';
import { reclassifyStoredSentiments } from '../server/ai/enrich/reclassify';

void (async () => {
  const { read, changed } = await reclassifyStoredSentiments();
  console.log(`sentiment: ${read} reviews read, ${changed} re-classified`);
  await closeDb();
})();
