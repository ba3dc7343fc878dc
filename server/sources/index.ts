/**
 * The review sources by kind. The engine asks for an adapter here and never imports an adapter module directly, so
 * adding a source is one line.
 */
import { appStoreConnectAdapter } from './appStoreConnect';
import { appStoreFeedAdapter } from './appStoreFeed';
import { playDeveloperAdapter } from './playDeveloper';
import { playPublicAdapter } from './playPublic';
import type { SourceAdapter, SourceKind } from './types';

export const adapters: Readonly<Record<SourceKind, SourceAdapter>> = {
  appstore_feed: appStoreFeedAdapter,
  appstore_connect: appStoreConnectAdapter,
  play_public: playPublicAdapter,
  play_developer: playDeveloperAdapter,
};

export function getAdapter(kind: SourceKind): SourceAdapter {
  const adapter = adapters[kind];
  if (!adapter) throw new Error(`Unknown review source kind: ${String(kind)}`);
  return adapter;
}

export { SourceError } from './types';
export type { NormalizedReview, PollOptions, PollResult, SourceAdapter, SourceConfig, SourceKind } from './types';
