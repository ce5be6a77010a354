import type { TErrorCode } from '@zelo/shared';
import { pgErrorOf } from '../db/pg-errors';
import { AppError } from './errors';

/**
 * The one place a database refusal becomes an answer. A check-then-insert races (two POSTs of one name, both
 * find the name free, one insert wins): the loser's unique violation answers the same 409 as the check would
 * have, named after the constraint that refused it; one not listed answers `ERR_CONFLICT`. A foreign key or a
 * value the column cannot hold is the client's input: 400. Only the SQLSTATE and the constraint name are read.
 */
const UNIQUE: Record<string, { code: TErrorCode; field?: string }> = {
  campaigns_company_name_unique: { code: 'ERR_DUPLICATED_CAMPAIGN', field: 'name' },
  flow_builders_company_name_unique: { code: 'ERR_DUPLICATED_FLOW', field: 'name' },
  flow_campaigns_company_name_unique: { code: 'ERR_DUPLICATED_FLOW_CAMPAIGN', field: 'name' },
  plans_name_unique: { code: 'ERR_DUPLICATED_PLAN', field: 'name' },
  queues_company_name_unique: { code: 'ERR_DUPLICATED_QUEUE', field: 'name' },
  tags_company_name_unique: { code: 'ERR_DUPLICATED_TAG', field: 'name' },
  files_company_name_unique: { code: 'ERR_DUPLICATED_FILE_LIST', field: 'name' },
  contact_lists_company_name_unique: { code: 'ERR_DUPLICATED_CONTACT_LIST', field: 'name' },
  contact_list_items_list_number_unique: { code: 'ERR_DUPLICATED_CONTACT', field: 'number' },
  prompts_company_name_unique: { code: 'ERR_DUPLICATED_PROMPT', field: 'name' },
  queue_integrations_company_name_unique: { code: 'ERR_DUPLICATED_INTEGRATION', field: 'name' },
  companies_name_unique: { code: 'ERR_DUPLICATED_COMPANY', field: 'name' },
  users_email_unique: { code: 'ERR_DUPLICATED_EMAIL', field: 'email' },
  contacts_company_number_unique: { code: 'ERR_DUPLICATED_CONTACT', field: 'number' },
  whatsapps_company_name_unique: { code: 'ERR_CONFLICT', field: 'name' },
};

/** invalid text representation, out of range, too long: a value the column cannot hold */
const BAD_VALUE = new Set(['22P02', '22003', '22001', '22007', '22008']);

export const databaseErrorAnswer = (err: unknown): AppError | undefined => {
  const pg = pgErrorOf(err);
  if (!pg) return undefined;
  if (pg.code === '23505') {
    const known = pg.constraint ? UNIQUE[pg.constraint] : undefined;
    if (!known) return new AppError('ERR_CONFLICT', 'Conflict');
    const details = known.field ? [{ path: known.field, message: 'duplicated' }] : undefined;

    return new AppError(known.code, 'Already exists', details);
  }
  if (pg.code === '23503' || BAD_VALUE.has(pg.code))
    return new AppError('ERR_VALIDATION', 'Invalid reference or value');

  return undefined;
};
