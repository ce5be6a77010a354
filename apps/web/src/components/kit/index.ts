/**
 * The list-and-form kit every list screen is built on (issue 11):
 * - `ListPage`: title, debounced search box (`useSearch`), add button, then the list;
 * - `useInfiniteList`: a paged API list as one array, next page while `hasMore`;
 * - `DataTable`: sticky header, actions column (`RowActions`), next page near the bottom, long lists
 *   virtualized, a card per row on a phone;
 * - `useListCache`: the realtime list reducer (merge by id / put first / remove) over the loaded pages,
 *   fed by saves and by a socket event; `useLiveList` is both plus delete, what most list screens need;
 * - `useEditDialog`: the add/edit dialog's state, remounted afresh on every opening;
 * - `FormDialog` + `FormTextField`: a dialog form on a shared zod schema, server field errors marked;
 *   `useSchemaForm` is the same form for one that stays on the page (the settings tabs);
 * - `useDeleteConfirm` and `ConfirmDialog`: ask before deleting.
 */
export { ConfirmDialog } from '../ConfirmDialog';
export { ClampedText } from './ClampedText';
export { DataTable, type TColumn, type TRowExtras, VIRTUALIZE_AFTER } from './DataTable';
export { FormDialog } from './FormDialog';
export { ImportDialog, type TImportErrorRow, type TImportProgressValue, type TImportSummary } from './ImportDialog';
export { FormTextField } from './FormTextField';
export { ListPage } from './ListPage';
export { flattenList, matchesSearch, removeFromList, type TListData, type TListPage, upsertInList } from './listCache';
export { ActionButton, RowActions } from './RowActions';
export { useDeleteConfirm } from './useDeleteConfirm';
export { useEditDialog } from './useEditDialog';
export { type TSchemaFormOptions, useSchemaForm } from './useSchemaForm';
export { listKey, searchOfListKey, useInfiniteList } from './useInfiniteList';
export { removeFromLists, type TListChange, upsertInLists, useListCache } from './useListCache';
export { type TLiveListOptions, useLiveList } from './useLiveList';
export { SEARCH_DEBOUNCE_MS, useSearch } from './useSearch';
