import { sql } from 'kysely';

/** `n` milliseconds as a PostgreSQL interval, rounded and never negative: `now() + ${msInterval(leaseMs)}`. */
export const msInterval = (n: number) => sql`(${Math.max(0, Math.round(n))}::double precision * interval '1 millisecond')`;
