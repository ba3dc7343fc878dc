/** The marketing content's shapes, defined once in shared/content.ts (the server's content reader builds them). */
export type * from '@/shared/content';
