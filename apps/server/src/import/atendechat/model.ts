/**
 * What one imported model is: the source table it walks (and in which key order), the columns it needs,
 * how a source row becomes a Zelo row (or a skip with its reason), and how a batch is written. The run
 * (run.ts) drives every model the same way; the models live in models/.
 */
import type { TConfig } from '../../config';
import type { TDb, TTx } from '../../db/client';
import type { TMediaCopier } from './media';
import type { TSourceRow } from './source';

/** what the models learn along the way and later ones read (ids imported, who replaced whom) */
export type TImportState = {
  ids: Record<string, Set<number>>;
  /** a duplicate contact's id → the kept contact's id (same company and number) */
  contactAlias: Map<number, number>;
  /** ticket id → its company and connection (messages take both from their ticket) */
  tickets: Map<number, { companyId: number; whatsappId: number | null; contactId: number }>;
  /** `company:connection:contact` of the open or pending tickets imported */
  activeTickets: Set<string>;
  /** quoted message id → its ticket (read before the quotes are linked) */
  quoted: Map<string, number>;
  /** lower-cased keys taken so far, per kind (user e-mails, company names…) */
  taken: Record<string, Set<string>>;
  /** id → company id of imported rows, per model (queues, connections…) */
  owners: Record<string, Map<number, number>>;
};

export type TMapResult<T> = { row: T; adjusted?: string[] } | { skip: string };

export type TModelContext = {
  config: TConfig;
  state: TImportState;
  media: TMediaCopier;
  dryRun: boolean;
};

export type TModel<T = Record<string, unknown>> = {
  /** the name in the report and the progress table */
  name: string;
  table: string;
  key: string[];
  /** columns without which the model cannot be imported */
  required: string[];
  /** other columns it reads when present (a version that lacks them still imports) */
  optional?: string[];
  /** only the source rows this selects (for a follow-up pass over a table) */
  where?: string;
  /** the columns read (default all) */
  select?: string;
  batch?: number;
  /** run before the model (also when an earlier run finished it): facts read from the source */
  prepare?: (query: (text: string) => Promise<TSourceRow[]>, state: TImportState) => Promise<void>;
  /** run on the target before the model's first batch (not in a dry run), e.g. statistics for its queries */
  before?: (db: TDb) => Promise<void>;
  /** rows this model imported before, read back from the target when a run resumes */
  restore?: (db: TDb, state: TImportState) => Promise<void>;
  map: (row: TSourceRow, ctx: TModelContext) => TMapResult<T> | Promise<TMapResult<T>>;
  /** writes a batch; answers how many rows it changed when that can be fewer than given */
  write: (tx: TTx, rows: T[], ctx: TModelContext) => Promise<number | undefined>;
  /** called with each committed batch (or each mapped batch in a dry run) */
  accepted?: (rows: T[], state: TImportState) => void;
};

export const newState = (): TImportState => ({
  ids: {},
  contactAlias: new Map(),
  tickets: new Map(),
  activeTickets: new Set(),
  quoted: new Map(),
  taken: {},
  owners: {},
});

export const idsOf = (state: TImportState, model: string) => {
  state.ids[model] ??= new Set();

  return state.ids[model];
};

export const takenOf = (state: TImportState, kind: string) => {
  state.taken[kind] ??= new Set();

  return state.taken[kind];
};

/** id → company of a model's imported rows */
export const ownersOf = (state: TImportState, model: string) => {
  state.owners[model] ??= new Map();

  return state.owners[model];
};
