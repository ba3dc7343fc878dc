/** What the search box and the app pages show about an app, the same for both stores. */
import type { AppStore } from '../sources/types';

export type { AppStore };

export const APP_STORES = ['apple_app_store', 'google_play_store'] as const satisfies readonly AppStore[];

/** One search result. */
export type AppSummary = {
  /** iOS trackId (digits) or Android package name. */
  app_id: string;
  app_store: AppStore;
  title: string;
  developer: string;
  icon: string | null;
  /** Average rating 0..5 rounded to 2 decimals; null when the store shows none yet. */
  rating: number | null;
  /** Number of ratings; null when the store does not say (Google Play's search list does not). */
  ratings_count: number | null;
};

/** The answer of app-details: the summary plus what a store page says. */
export type AppDetails = AppSummary & {
  /** The storefront the details were read from (alpha-2, lower case). */
  country: string;
  store_url: string;
  /** iOS bundle id; for Android the package name again. */
  bundle_id: string;
  version: string | null;
  /** 0 for free apps; null when unknown. */
  price: number | null;
  currency: string | null;
  genre: string | null;
  summary: string | null;
  /** ISO time of the last update the store shows, when it shows one. */
  updated_at: string | null;
};

/** Ratings are shown with one or two decimals; the stores send long floats. */
export function roundRating(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 100) / 100 : null;
}

export function countOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}
