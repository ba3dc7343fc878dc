/**
 * A connection's state as GET v1/public/destination/{id} answers it: the server builds it (server/monitor/service.ts
 * DestinationStatus), the browser's status card reads it. Types only, owned by neither side, so both import it from
 * here (shared/ never imports from server/ or from browser modules).
 */
import type { FirstMessage } from '@/shared/deliveryErrors';

export type DestinationState = {
  /** pending_confirmation: an e-mail destination waiting for its mailbox to click the confirmation link. */
  status: 'active' | 'paused' | 'disabled' | 'pending_confirmation';
  /** Why it is paused, disabled or pending, in plain words. */
  status_reason: string | null;
  /** Channel name when known. */
  label: string | null;
  /** Where it posts, redacted (host and last characters): enough to recognise, useless to abuse. */
  target: string;
  warning: string | null;
  welcome: 'waiting_for_first_poll' | 'queued' | 'delivered';
  queued: number;
  delivered: number;
  last_delivery_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  /**
   * 'delivered' once a message got through — only then is the destination "Active" —, 'failed' while none has and
   * the last attempt failed, 'not_yet' before the first attempt (shared/deliveryErrors.ts).
   */
  first_message: FirstMessage;
  /** While first_message is 'failed': what happened and what to check, in words ("Connected, but the first message …"). */
  first_delivery_problem: string | null;
  /** Messages set aside because the worker stopped while sending each of them several times in a row. */
  parked: number;
  /** Why, in words (null without parked messages). */
  parked_reason: string | null;
  /** A store's reviews of a connected app cannot be read right now (its format changed), in plain words. */
  source_problem: string | null;
  /** Pending e-mail destinations: when the confirmation e-mail went out (null before it did). */
  confirmation_sent_at: string | null;
};
