/**
 * The error behaviour of auth and billing calls (docs/PRODUCT.md, Sign-in and the dashboard): log 'Serious Error AuthExchange' to the console
 * and resolve with null instead of throwing. `onError` lets a page still show the server's message (e.g. billing's
 * 503 "billing is not set up") without changing what the call resolves to.
 */
import axios from 'axios';
import { MESSAGES } from '@/lib/messages';
import { ApiError } from './client';

export type QuietOptions = { onError?: (error: ApiError) => void };

export async function orNull<T>(request: Promise<T>, options: QuietOptions = {}): Promise<T | null> {
  try {
    return await request;
  } catch (err) {
    if (axios.isCancel(err)) return null;
    console.error(MESSAGES.authErrorLog, err);
    const error = err instanceof ApiError ? err : new ApiError(err instanceof Error ? err.message : String(err), 0, 'client_error');
    options.onError?.(error);
    return null;
  }
}
