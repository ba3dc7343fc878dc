/**
 * The one HTTP client of the browser: API base from NEXT_PUBLIC_API_BASE, the 50 s timeout (docs/PRODUCT.md, Constants),
 * credentials (cookies) on every request, and a bearer header only where a call passes a token.
 * Every failure becomes an ApiError carrying status, code and the server's message.
 */
import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import { apiBase } from './base';

const HTTP_TIMEOUT_MS = 50_000;

export class ApiError extends Error {
  constructor(
    message: string,
    public status: number,
    public code: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type ErrorBody = { error?: { code?: string; message?: string } };

export const api = axios.create({
  baseURL: apiBase(),
  timeout: HTTP_TIMEOUT_MS,
  withCredentials: true,
  headers: { 'Content-Type': 'application/json' },
});

// The API refuses a POST that is not typed JSON (415), and axios drops the Content-Type of a request without data:
// body-less calls send an empty JSON object instead.
api.interceptors.request.use((config) => {
  if (config.data === undefined && /^(post|put|patch)$/i.test(config.method ?? '')) config.data = {};
  return config;
});

api.interceptors.response.use(
  (r) => r,
  (err: AxiosError<ErrorBody>) => {
    if (axios.isCancel(err)) return Promise.reject(err);
    const status = err.response?.status ?? 0;
    const body = err.response?.data?.error;
    const message =
      body?.message ??
      (err.code === 'ECONNABORTED' ? 'The request timed out. Check your connection and try again.' : 'Could not reach ARB. Check your connection and try again.');
    return Promise.reject(new ApiError(message, status, body?.code ?? (status ? 'http_error' : 'network_error')));
  },
);

/** Request options with a bearer token, for the calls that send one. */
export function withBearer(token: string | undefined | null, config: AxiosRequestConfig = {}): AxiosRequestConfig {
  if (!token) return config;
  return { ...config, headers: { ...(config.headers ?? {}), Authorization: `Bearer ${token}` } };
}

/** Unwrap the API's `{ data }` envelope. */
export async function call<T>(p: Promise<{ data: { data: T } }>): Promise<T> {
  const r = await p;
  return r.data.data;
}
