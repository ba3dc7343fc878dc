/**
 * What an episode's alert says, stored with the episode when it opens (spike_episodes.details): the detector's
 * evidence, where the 1–2★ reviews concentrate and a few of them, cited. The message is built from this at send time
 * (message.ts), so a retry says exactly what the first attempt did.
 */
import type { AlertCitedReview } from '../destinations/types';
import type { Concentration, Scope, Signal } from './detector';
import type { TopicSignal } from './topics';

/** A cited review as stored: the message's fields but its id, as a number; its link is made at send time. */
export type CitedReview = Omit<AlertCitedReview, 'reviewId' | 'link'> & { id: number };

export type AlertDetails = {
  scope: Scope;
  /** A spike's signals, and the topics found in the same check (topics.ts); a topic episode's one topic. */
  signals: Array<Signal | TopicSignal>;
  concentration: Concentration[];
  cited: CitedReview[];
};
