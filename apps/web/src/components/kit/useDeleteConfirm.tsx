import { type ReactNode, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { ConfirmDialog } from '../ConfirmDialog';
import { toast, toastError } from '../toast';

type TDeleteConfirmOptions<T> = {
  /** deletes on the server (and out of the lists) */
  onDelete: (row: T) => Promise<unknown>;
  title: (row: T) => string;
  message?: (row: T) => ReactNode;
  /** toast after the delete; "deleted" when not given */
  successMessage?: string;
};

/**
 * Asks before deleting: `ask(row)` opens the confirm dialog, its OK deletes and toasts.
 *
 *   const remove = useDeleteConfirm({ onDelete: (tag) => api.delete(`/tags/${tag.id}`), title: (tag) => … });
 *   <RowActions onDelete={() => remove.ask(tag)} />  …  {remove.dialog}
 */
export const useDeleteConfirm = <T,>({ onDelete, title, message, successMessage }: TDeleteConfirmOptions<T>) => {
  const { t } = useTranslation();
  const [row, setRow] = useState<T | null>(null);

  const confirm = async (target: T) => {
    try {
      await onDelete(target);
      toast.success(successMessage ?? t('common.deleted'));
    } catch (err) {
      toastError(err);
    }
  };

  const dialog = (
    <ConfirmDialog
      open={row !== null}
      title={row === null ? '' : title(row)}
      confirmLabel={t('common.delete')}
      onConfirm={() => row !== null && void confirm(row)}
      onClose={() => setRow(null)}
    >
      {row === null ? null : (message?.(row) ?? t('common.deleteWarning'))}
    </ConfirmDialog>
  );

  return { ask: setRow, dialog };
};
