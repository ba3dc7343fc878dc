/**
 * What watching an app "in a country" means — the one rule, for every path that connects a destination (the connect
 * flow, tools, tests) and for the engine:
 * - an App Store app is read one storefront at a time: a storefront code watches that storefront; "all countries"
 *   (ALL_COUNTRIES) watches the MAIN_STOREFRONTS (shared/storefronts.ts says why not all ~175); nothing chosen means 'us';
 * - the storefronts watched are also the ones whose reviews the destination wants (its country filter), even if other
 *   destinations have the app watched in more storefronts;
 * - the first storefront ('us' for all countries) is where the app is looked up, and the one whose first poll makes
 *   the welcome current: the others are polled at once too, and deliver what they find as it arrives;
 * - a Google Play app's public reviews are read by language ('en' unless chosen), not by country;
 * - an app an organisation added to its dashboard is watched the same way, in each storefront it chose, with no
 *   destination at all (server/orgApps; sourceDemand.ts counts the organisation as a need).
 * Pure: no database, so a unit test can hold every caller to it.
 */
import { ALL_COUNTRIES, MAIN_STOREFRONTS } from '@/shared/storefronts';
import type { AppStore } from '../sources/types';

export const DEFAULT_STOREFRONT = 'us';
export const DEFAULT_PLAY_LANGUAGE = 'en';

export type WantedSource = { kind: 'appstore_feed'; country: string } | { kind: 'play_public'; language: string };

/** The App Store storefronts watched (and wanted) for this choice: a code, ALL_COUNTRIES, or nothing. */
export function storefrontsFor(country: string | null | undefined): readonly string[] {
  if (country === ALL_COUNTRIES) return MAIN_STOREFRONTS;
  return [country || DEFAULT_STOREFRONT];
}

/** The sources a destination for an app of this store needs, the one that makes its welcome current first. */
export function sourcesFor(store: AppStore, country: string | null | undefined, language?: string | null): WantedSource[] {
  if (store === 'apple_app_store') return storefrontsFor(country).map((c) => ({ kind: 'appstore_feed', country: c }));
  return [{ kind: 'play_public', language: language || DEFAULT_PLAY_LANGUAGE }];
}
