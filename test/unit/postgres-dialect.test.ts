import { describe, expect, it } from 'vitest';
import { positional } from '../../src/store/postgres/dialect.js';

describe("PostgreSQL's dialect", () => {
  it('numbers the ? placeholders in order, and leaves a ? inside a string or a quoted name alone', () => {
    const { text } = positional(
      `SELECT '?' AS "what?", a FROM t WHERE b = ? AND c = 'it''s ?' AND d IN (?, ?) -- ${'x'}`,
    );
    expect(text).toBe(
      `SELECT '?' AS "what?", a FROM t WHERE b = $1 AND c = 'it''s ?' AND d IN ($2, $3) -- x`,
    );
  });

  it('prepares each text once under one name, and a different text under another', () => {
    const first = positional('SELECT 1 AS one WHERE ? = ?');
    expect(positional('SELECT 1 AS one WHERE ? = ?')).toBe(first);
    const other = positional('SELECT 2 AS two WHERE ? = ?');
    expect(other.name).toBeDefined();
    expect(other.name).not.toBe(first.name);
  });
});
