/**
 * The one interface every review source implements, and the review shape they all produce.
 * Sources are pure adapters over HTTP: they fetch and normalise; storing, dedupe and watermarks are the engine's job
 * (server/monitor). Each adapter's base URL comes from env().
 */
export type AppStore = 'apple_app_store' | 'google_play_store';

export type SourceKind =
  | 'appstore_feed' // public customer-reviews RSS (JSON), per country, 10 pages × 50
  | 'appstore_connect' // official API with the owner's key (issuer id, key id, .p8), all territories
  | 'play_public' // public Google Play reviews, newest first, by language
  | 'play_developer'; // Google Play Developer API with a service account (last 7 days, edits)

export type NormalizedReview = {
  store: AppStore;
  /** iOS trackId (digits) or Android package name. */
  appId: string;
  /** The store's own review id: identity across edits. */
  storeReviewId: string;
  /** ISO 3166 alpha-2, lower case; null when the store does not say (Google Play). */
  country: string | null;
  /** BCP 47-ish language when known (Play's reviewerLanguage, or detected later). */
  language: string | null;
  authorName: string;
  title: string | null;
  body: string;
  /** 1..5 */
  rating: number;
  appVersion: string | null;
  /** When the review was first written, when the store says. */
  createdAt: Date | null;
  /** Last modification (an edit bumps it). */
  updatedAt: Date;
  replyText: string | null;
  replyUpdatedAt: Date | null;
  /** Link to the review or the app's store page. */
  permalink: string | null;
  /**
   * True when the store gave this review no date of its own and `updatedAt` is the date of the page it came on (an
   * upper bound: the review was written at or before it). The engine then never announces it on a source's first
   * poll, where dates alone separate history from new reviews.
   */
  dateFromPage?: boolean;
};

export type SourceCredentials =
  | { kind: 'appstore_connect'; issuerId: string; keyId: string; privateKeyPem: string }
  | { kind: 'play_developer'; serviceAccountJson: string };

export type SourceConfig = {
  kind: SourceKind;
  appId: string;
  /** appstore_feed: the storefront (alpha-2). */
  country?: string;
  /** play_public: review language (e.g. 'en'). */
  language?: string;
  credentials?: SourceCredentials;
};

export type PollOptions = {
  signal?: AbortSignal;
  /** Newest review timestamp already stored (the watermark); adapters may stop paging once past it. */
  since?: Date | null;
  /** Upper bound on pages fetched in one poll. */
  maxPages?: number;
};

export type PollResult = {
  /** Newest first, deduplicated by storeReviewId. */
  reviews: NormalizedReview[];
  /**
   * False when the source could not be read completely (e.g. the App Store feed answered an empty page that is
   * probably its intermittent glitch): the engine must not advance the watermark past what it did not see.
   */
  complete: boolean;
};

export interface SourceAdapter {
  kind: SourceKind;
  poll(config: SourceConfig, options?: PollOptions): Promise<PollResult>;
}

export class SourceError extends Error {
  constructor(
    message: string,
    /** permanent: wrong app id or credentials — pause the source and tell the owner; otherwise retry later. */
    public permanent: boolean,
    public status?: number,
    /** The store's answer headers when it answered (Retry-After, X-Rate-Limit), for callers that pace themselves. */
    public headers?: Record<string, string | string[] | undefined>,
  ) {
    super(message);
  }
}

/**
 * The store answered, but not in a shape we can read: a page with entries of which none yields a review. Never "no new
 * reviews": the poll fails (the watermark stays), the engine counts and logs it and tells the app's owner. Transient
 * for scheduling (the source is polled again with backoff), because the fix is ours, not the owner's.
 */
export class SourceFormatError extends SourceError {
  constructor(message: string) {
    super(message, false);
  }
}
