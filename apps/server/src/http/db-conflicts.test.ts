import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { databaseErrorAnswer } from './db-conflicts';
import { toErrorAnswer } from './errors';

/** what the driver throws, as pg and PGlite shape it (the statement's parameters carry a secret) */
const driverError = (code: string, constraint?: string) =>
  Object.assign(new Error('duplicate key'), { code, constraint });
const wrapped = (err: Error) => new DrizzleQueryError('insert into campaigns …', ['secret-token-123'], err);

describe('database refusals', () => {
  it("a unique violation wrapped by drizzle answers the constraint's duplicate code, 409", () => {
    const answer = toErrorAnswer(wrapped(driverError('23505', 'campaigns_company_name_unique')));
    expect(answer).toMatchObject({
      status: 409,
      crash: false,
      body: { error: 'ERR_DUPLICATED_CAMPAIGN', details: [{ path: 'name', message: 'duplicated' }] },
    });
    expect(JSON.stringify(answer.body)).not.toContain('secret-token-123');
  });

  it('an unlisted constraint answers ERR_CONFLICT; a foreign key or a bad value 400', () => {
    expect(databaseErrorAnswer(wrapped(driverError('23505', 'something_new_unique')))?.code).toBe('ERR_CONFLICT');
    expect(toErrorAnswer(wrapped(driverError('23503', 'tickets_queue_id_fkey')))).toMatchObject({
      status: 400,
      body: { error: 'ERR_VALIDATION' },
    });
    expect(toErrorAnswer(wrapped(driverError('22P02'))).status).toBe(400);
  });

  it('what is not a SQLSTATE is not read as one: a lost connection is still a crash', () => {
    expect(databaseErrorAnswer(Object.assign(new Error('broken pipe'), { code: 'EPIPE' }))).toBeUndefined();
    expect(toErrorAnswer(wrapped(Object.assign(new Error('gone'), { code: 'ECONNRESET' })))).toMatchObject({
      status: 500,
      crash: true,
    });
  });
});
