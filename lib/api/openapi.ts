/**
 * The API's request and answer types, read from lib/api/schema.d.ts (generated from the server's OpenAPI document by
 * `npm run api-types`). Types only: nothing here reaches the browser's code.
 *   ApiData<'/api/v1/auth/token/renew', 'post'>   the `data` of the 200 answer
 *   ApiBody<'/api/search', 'post'>                the JSON body the endpoint accepts
 *   ApiQuery<'/api/v1/public/app-details', 'get'> its query parameters
 */
import type { paths } from './schema';

export type ApiPath = keyof paths;
type Operation<P extends ApiPath, M extends keyof paths[P]> = paths[P][M];
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type ApiData<P extends ApiPath, M extends keyof paths[P]> =
  Operation<P, M> extends { responses: { 200: infer R } } ? (Json<R> extends { data: infer D } ? D : never) : never;

export type ApiBody<P extends ApiPath, M extends keyof paths[P]> = Operation<P, M> extends { requestBody: infer B } ? Json<B> : never;

export type ApiQuery<P extends ApiPath, M extends keyof paths[P]> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
