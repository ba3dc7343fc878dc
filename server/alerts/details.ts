/**
 * What an episode's alert says, stored with the episode when it opens (spike_episodes.details): the detector's
 * evidence, where the 1–2★ reviews concentrate and a few of them, cited. The message is built from this at send time
 * (message.ts), so a retry says exactly what the first attempt did.
 */
import type { Concentration, Scope, Signal } from './detector';

export type CitedReview = {
  id: number;
  rating: number;
  title: string | null;
  body: string;
  author: string;
  country: string | null;
  version: string | null;
};

export type AlertDetails = {
  scope: Scope;
  signals: Signal[];
  concentration: Concentration[];
  cited: CitedReview[];
};
