/**
 * A loopback Google Play `batchexecute` endpoint answering the reviews RPC (UsvDTd) in the store's real format:
 *   )]}'
 *
 *   [["wrb.fr","UsvDTd","<reviews page as a JSON string>",null,null,null,"generic"],["di",61],["af.httprm",60,"…",22]]
 * The page is [reviews, [null, "<next token>"]] (no token part on the last page); each review is the store's tuple
 * [id, [name, [null,2,null,[null,null,avatar]]], score, null, text, [seconds, nanos], thumbsUp, reply, …, version].
 * Requests for other RPC ids return false, so the search/details fake can share the host.
 *
 *   const play = createGooglePlayReviews();
 *   const fake = await startFakeServer([googlePlayReviewsRoutes(play)]);   // GOOGLE_PLAY_BASE_URL = fake.url
 *   play.publish('com.example.app', 'en', { text: 'Nice', score: 4 });
 */
import type { FakeHandler } from './http';

export type PlayPublicReview = {
  id: string;
  userName: string;
  score: number;
  text: string;
  at: Date;
  thumbsUp: number;
  version: string | null;
  reply: { text: string; at: Date } | null;
};

export type GooglePlayReviewsStore = {
  publish(appId: string, lang: string, review?: Partial<PlayPublicReview>): PlayPublicReview;
  reviews(appId: string, lang: string): PlayPublicReview[];
  /** The next `times` reviews requests answer with this status (Google answers bursts with 503 / 429). */
  failNext(status: number, times?: number): void;
  /** After this many distinct reviews the listing starts over from the top, as the real store does deep down. */
  repeatAfter: number | null;
  /** Every reviews request received: the decoded RPC arguments. */
  calls: Array<{ appId: string; lang: string | null; count: number; token: string | null; sort: number }>;
};

let seq = 0;
const reviewId = () => `gp:AOqpTO${(++seq).toString(36).padStart(6, '0')}${Math.random().toString(36).slice(2, 12)}`;

export type GooglePlayReviewsFake = GooglePlayReviewsStore & { data: Map<string, PlayPublicReview[]>; failures: number[] };

export function createGooglePlayReviews(): GooglePlayReviewsFake {
  const data = new Map<string, PlayPublicReview[]>();
  const failures: number[] = [];
  const key = (appId: string, lang: string) => `${appId}|${lang.toLowerCase()}`;
  return {
    data,
    failures,
    repeatAfter: null,
    calls: [],
    publish(appId, lang, review = {}) {
      const full: PlayPublicReview = {
        id: review.id ?? reviewId(),
        userName: review.userName ?? 'A Google user',
        score: review.score ?? 5,
        text: review.text ?? 'Works well.',
        at: review.at ?? new Date(),
        thumbsUp: review.thumbsUp ?? 0,
        version: review.version === undefined ? '1.0.0' : review.version,
        reply: review.reply ?? null,
      };
      data.set(key(appId, lang), [...(data.get(key(appId, lang)) ?? []), full]);
      return full;
    },
    reviews(appId, lang) {
      return [...(data.get(key(appId, lang)) ?? [])];
    },
    failNext(status, times = 1) {
      for (let i = 0; i < times; i++) failures.push(status);
    },
  };
}

const tupleTime = (d: Date) => [Math.floor(d.getTime() / 1000), (d.getTime() % 1000) * 1e6];

function reviewTuple(r: PlayPublicReview): unknown[] {
  return [
    r.id,
    [r.userName, [null, 2, null, [null, null, `https://play-lh.googleusercontent.com/a-/${r.id.slice(3, 15)}`], null, null, null, null, null, null]],
    r.score,
    null,
    r.text,
    tupleTime(r.at),
    r.thumbsUp,
    r.reply ? [null, r.reply.text, tupleTime(r.reply.at)] : null,
    null,
    null,
    r.version,
    null,
    null,
    null,
    null,
  ];
}

/** The decoded f.req: [[["UsvDTd","[null,null,[2,sort,[count,null,token],null,[]],[\"app\",7]]",null,"generic"]]] */
function decodeRequest(body: string): { rpc: string; args: unknown } | null {
  const freq = new URLSearchParams(body).get('f.req');
  if (!freq) return null;
  try {
    const outer = JSON.parse(freq) as unknown[][][];
    const call = outer[0][0];
    return { rpc: String(call[0]), args: typeof call[1] === 'string' ? JSON.parse(call[1]) : null };
  } catch {
    return null;
  }
}

function envelope(payload: string | null): string {
  return `)]}'\n\n${JSON.stringify([
    ['wrb.fr', 'UsvDTd', payload, null, null, null, 'generic'],
    ['di', 61],
    ['af.httprm', 60, '-5527343036917716633', 22],
  ])}`;
}

export function googlePlayReviewsRoutes(store: GooglePlayReviewsFake): FakeHandler {
  return (req, res) => {
    if (req.method !== 'POST' || req.path !== '/_/PlayStoreUi/data/batchexecute') return false;
    const decoded = decodeRequest(req.body);
    if (!decoded || decoded.rpc !== 'UsvDTd') return false;

    const args = decoded.args as [null, null, [number, number, [number, null, string | null], null, unknown[]], [string, number]];
    const [, , [, sort, [count, , token]], [appId]] = args;
    const lang = req.query.get('hl');
    store.calls.push({ appId, lang, count, token: token ?? null, sort });

    const status = store.failures.shift();
    if (status) {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=UTF-8' });
      res.end('<html><body>Our systems have detected unusual traffic from your computer network.</body></html>');
      return true;
    }
    // Language filters Play reviews; the country (gl) does not.
    const all = store.reviews(appId, lang ?? 'en').sort((a, b) => b.at.getTime() - a.at.getTime());
    if (all.length === 0) {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(envelope(null));
      return true;
    }
    let offset = token ? Number(Buffer.from(token, 'base64url').toString('utf8').replace(/^offset:/, '')) : 0;
    if (store.repeatAfter != null && offset >= store.repeatAfter) offset = offset % store.repeatAfter;
    const page = all.slice(offset, offset + count).map(reviewTuple);
    const next = offset + count;
    const hasMore = next < all.length || (store.repeatAfter != null && page.length > 0);
    const nextToken = Buffer.from(`offset:${next}`).toString('base64url');
    const payload = JSON.stringify(hasMore ? [page, [null, nextToken]] : [page]);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(envelope(payload));
    return true;
  };
}
