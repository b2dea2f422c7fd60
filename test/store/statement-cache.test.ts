// Invariant: kysely's SQLite statements are prepared once per SQL text and reused, within bounds (how many, how much
// SQL), and a kept statement answers like a fresh one, through a schema change too.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { keepingStatements } from '../../src/store/index.ts';

function counted() {
  const db = new Database(':memory:');
  let prepared = 0;
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    prepared++;
    return prepare(sql);
  }) as typeof db.prepare;
  return { db, kept: keepingStatements(db), prepared: () => prepared };
}

describe('keepingStatements', () => {
  it('prepares a repeated text once, and its statement answers every time', () => {
    const { db, kept, prepared } = counted();
    db.exec('CREATE TABLE t (a INTEGER)');
    const insert = 'INSERT INTO t (a) VALUES (?), (?)';
    for (let i = 0; i < 10; i++) kept.prepare(insert).run(i, i + 100);
    expect(prepared()).toBe(1);
    expect(kept.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 20 });
    // A schema change: SQLite prepares the kept statement again itself.
    db.exec('ALTER TABLE t ADD COLUMN b TEXT');
    expect(kept.prepare('SELECT * FROM t WHERE a = ?').get(0)).toEqual({ a: 0, b: null });
    kept.prepare(insert).run(1, 2);
    expect(kept.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 22 });
    expect(prepared()).toBe(3);
    kept.close();
    expect(db.open).toBe(false);
  });

  it('keeps at most 64 statements, dropping the least recently used', () => {
    const { kept, prepared } = counted();
    const text = (i: number) => `SELECT ${i} AS n`;
    for (let i = 0; i < 64; i++) kept.prepare(text(i));
    kept.prepare(text(0)); // used again: now the most recent
    kept.prepare(text(64)); // one over: text(1) goes
    expect(prepared()).toBe(65);
    kept.prepare(text(0));
    expect(prepared()).toBe(65);
    kept.prepare(text(1));
    expect(prepared()).toBe(66);
  });

  it('does not keep a statement over half the SQL budget, and keeps the rest within it', () => {
    const { kept, prepared } = counted();
    const values = (rows: number) => `SELECT * FROM (VALUES ${Array(rows).fill('(1, 2, 3)').join(', ')})`;
    const huge = values(9_000); // about 100 KB of SQL
    kept.prepare(huge);
    kept.prepare(huge);
    expect(prepared()).toBe(2);
    // Three of about 60 KB fit no more than two at a time in 160 KB: the first is gone by the third.
    const big = [values(5_000), `${values(5_000)} `, `${values(5_000)}  `];
    for (const sql of big) kept.prepare(sql);
    kept.prepare(big[2] as string);
    kept.prepare(big[1] as string);
    expect(prepared()).toBe(5);
    kept.prepare(big[0] as string);
    expect(prepared()).toBe(6);
  });
});
