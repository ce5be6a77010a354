import {
  events,
  type TFlowListAnswer,
  type TFlowSummary,
  type TFlowTestRunAnswer,
  type TFlowUploadAnswer,
  type TFlowWithDocument,
} from '@zelo/shared';
import { api } from '../../api/http';
import { matchesSearch, useLiveList } from '../../components/kit';
import type { TFlowDocument } from './flowDocument';
import type { TMediaKind } from './nodes/media';

/*
 * The flow builder's calls (spec 3 §7, flow-contract.md): the list, create, rename, active flag, duplicate,
 * delete, the document's load and save, the node uploads and the test run.
 */

export const FLOWS_QUERY_KEY = ['flows', 'page'] as const;
const FLOWS_LIST = {
  queryKey: FLOWS_QUERY_KEY,
  itemsKey: 'flows',
  matches: (f: TFlowSummary, search: string) => matchesSearch(search, f.name),
};

/** `company-{id}-flowbuilder` */
export type TFlowEvent =
  | { action: 'create' | 'update'; flow: TFlowSummary }
  | { action: 'delete'; flowId: number | string };

export const flowEventChange = (data: TFlowEvent) =>
  data.action === 'delete' ? { remove: Number(data.flowId) } : data.flow ? { upsert: data.flow } : null;

export const createFlow = (name: string) => api.post<TFlowSummary>('/flowbuilder', { name });
export const renameFlow = (flowId: number, name: string) => api.put<TFlowSummary>('/flowbuilder', { flowId, name });
export const setFlowActive = (flowId: number, active: boolean) =>
  api.put<TFlowSummary>('/flowbuilder', { flowId, active });
export const duplicateFlow = (flowId: number) => api.post<TFlowSummary>('/flowbuilder/duplicate', { flowId });

/** GET /flowbuilder/flow/:id: the ancestor reads the document as `flow.flow` (null for a flow never saved) */
export const loadFlow = async (id: number) =>
  (await api.get<{ flow: TFlowWithDocument }>(`/flowbuilder/flow/${id}`)).flow;

export const saveFlow = (id: number, doc: TFlowDocument) =>
  api.post<unknown>('/flowbuilder/flow', { idFlow: id, nodes: doc.nodes, connections: doc.connections });

const UPLOAD_PATHS: Record<TMediaKind, string> = {
  img: '/flowbuilder/img',
  audio: '/flowbuilder/audio',
  video: '/flowbuilder/video',
};

/** One node file, as the ancestor's dialogs send it (`fromMe`, `medias`, `body`); the answer names the stored file. */
export const uploadFlowMedia = (kind: TMediaKind, file: File) => {
  const form = new FormData();
  form.append('fromMe', 'true');
  form.append('medias', file, file.name);
  form.append('body', file.name);

  return api.upload<TFlowUploadAnswer>(UPLOAD_PATHS[kind], form);
};

/** POST /flowbuilder/:id/test-run: a fresh simulated customer on the sandbox connection runs the saved flow */
export const startTestRun = (id: number) => api.post<TFlowTestRunAnswer>(`/flowbuilder/${id}/test-run`, {});
/** ends a test run: its simulated customer, tickets and messages are deleted (nothing of it stays in the inbox) */
export const endTestRun = (runId: number) => api.delete<void>(`/flowbuilder/run/${runId}`);

/** GET /flowbuilder page by page, kept in step with saves, deletes and the company's flow events. */
export const useFlowsList = (searchParam: string) =>
  useLiveList<TFlowSummary, TFlowEvent>({
    ...FLOWS_LIST,
    path: '/flowbuilder',
    searchParam,
    event: events.flowBuilder,
    toChange: flowEventChange,
  });

export type { TFlowListAnswer };
