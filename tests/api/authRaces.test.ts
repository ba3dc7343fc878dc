// Sign-in requests that race on one row, on PGlite and PostgreSQL (where the requests' statements run on several
// connections at once): a code's tries are counted in the database, so concurrent guesses get no more than 5, and a
// dashboard hand-off code is used once however many tabs send it together. The rest of sign-in, whose answers the
// database cannot change, is in auth.test.ts (PGlite only: vitest.config.ts).
import { describe, expect, test } from 'vitest';
import { setUpMailApi } from '../helpers/apiWorld';
import { signInFlow } from './support/signInFlow';

const w = setUpMailApi('auth-races', { HCAPTCHA_SECRET: undefined, STRIPE_SECRET_KEY: undefined });

const { nextIp, nextEmail, confirm, codeAndWrongGuess, signIn, handoffCode, handoff } = signInFlow(w);

describe('races on one row', () => {
  test('concurrent guesses cannot get more than 5 tries', async () => {
    const email = nextEmail('race');
    const ip = nextIp();
    const { wrong } = await codeAndWrongGuess(email, ip);
    const answers = await Promise.all(Array.from({ length: 12 }, () => confirm(email, wrong, ip)));
    expect(answers.filter((a) => a.json.error?.code === 'code_invalid')).toHaveLength(5);
    expect(answers.filter((a) => a.json.error?.code === 'code_attempts_exceeded')).toHaveLength(7);
    const row = await w.db.db.selectFrom('login_codes').select('attempts').where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
  });

  test('two tabs racing for one code: exactly one wins', async () => {
    const session = await signIn(nextEmail('handoff-race'));
    const code = await handoffCode(session.authToken);
    const answers = await Promise.all(Array.from({ length: 6 }, () => handoff(code)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  });
});
