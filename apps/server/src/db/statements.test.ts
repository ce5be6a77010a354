import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isoFromTimestamptz, MAX_NAMED_SHAPES, SqlParams, statementName } from './statements';

describe('SQL text statements', () => {
  it('number only the parameters the final text uses, in order', () => {
    const params = new SqlParams();
    const dropped = params.fixed(1, 'int');
    const kept = params.anyOf('t.queue_id', [3, 4], 'int');
    const last = params.value('x', 'text');
    expect(dropped).toContain('::int');
    const { text, values } = params.render(`${kept} and y = ${last}`);
    expect(text).toBe('t.queue_id = any((select $1::int[])::int[]) and y = $2::text');
    expect(values).toEqual([[3, 4], 'x']);
  });

  it('name a statement by its text', () => {
    expect(statementName('select 1')).toBe(statementName('select 1'));
    expect(statementName('select 1')).not.toBe(statementName('select 2'));
  });

  it('name at most MAX_NAMED_SHAPES shapes of dynamic queries, and every fixed text', () => {
    for (let i = 0; i < MAX_NAMED_SHAPES; i++)
      expect(statementName(`select ${i} -- shape`, { shape: true })).toBeDefined();
    expect(statementName('select 0 -- shape', { shape: true })).toBeDefined();
    expect(statementName('select -1 -- shape', { shape: true })).toBeUndefined();
    expect(statementName('select -1 -- fixed')).toBeDefined();
  });

  it('write a timestamptz as Date#toISOString() does, from any offset and precision', () => {
    const parse = pg.types.getTypeParser(1184) as (text: string) => Date;
    for (const text of [
      '2026-11-24 09:23:18.724123+00',
      '2026-11-24 09:23:18.7+00',
      '2026-11-24 09:23:18.009999+00',
      '2026-11-24 09:23:18+00',
      '1999-12-31 23:59:59.999999+00',
      '2026-11-24 06:23:18.724123-03',
      '2026-11-24 14:53:18.5+05:30',
      '2026-02-28 23:00:00.000001-03',
      '1890-01-01 00:00:00-03:06:28',
      '2026-12-31 23:59:59.9999+14',
    ]) {
      expect(isoFromTimestamptz(text), text).toBe(parse(text).toISOString());
    }
  });
});
