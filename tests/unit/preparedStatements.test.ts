// Which statements go to PostgreSQL as named prepared statements (server/db/preparedStatements.ts). That the server
// then holds them and answers the same: tests/api/preparedStatements.test.ts.
import { describe, expect, test } from 'vitest';
import { statementNames } from '@/server/db/preparedStatements';

const marked = (text: string) => `/* prepared */ ${text}`;

describe('statementNames', () => {
  test('a marked text with parameters is named at once, and the same name every time', () => {
    const names = statementNames();
    const text = marked('select * from reviews where id = $1');
    const name = names.nameFor(text, 1);
    expect(name).toMatch(/^arb_[\w-]{24}$/);
    expect(names.nameFor(text, 1)).toBe(name);
    expect(names.size()).toBe(1);
  });

  test('unmarked statements and statements without parameters are never named', () => {
    const names = statementNames();
    for (let i = 0; i < 3; i++) {
      expect(names.nameFor('select * from reviews where id = $1', 1)).toBeUndefined();
      expect(names.nameFor(marked('select 1'), 0)).toBeUndefined();
    }
    expect(names.size()).toBe(0);
  });

  test('different texts get different names; the name depends on the text only', () => {
    const a = statementNames();
    const b = statementNames();
    const n1 = a.nameFor(marked('select $1::int'), 1);
    const n2 = a.nameFor(marked('select $1::text'), 1);
    expect(n1).not.toBe(n2);
    expect(b.nameFor(marked('select $1::int'), 1)).toBe(n1);
  });

  test('past the cap, new texts go unnamed while the ones named keep their names', () => {
    const names = statementNames(2);
    const texts = ['select $1::int', 'select $1::text', 'select $1::bigint'].map(marked);
    const named = texts.map((t) => names.nameFor(t, 1));
    expect(named[0]).toBeDefined();
    expect(named[1]).toBeDefined();
    expect(named[2]).toBeUndefined();
    expect(names.nameFor(texts[0], 1)).toBe(named[0]);
    expect(names.size()).toBe(2);
  });
});
