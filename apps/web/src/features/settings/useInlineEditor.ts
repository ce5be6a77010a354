import { type ReactNode, useState } from 'react';
import { useDeleteConfirm } from '../../components/kit';

type TInlineEditorOptions<T> = {
  /** deletes on the server */
  onDelete: (row: T) => Promise<unknown>;
  deleteTitle: (row: T) => string;
  deleteMessage: ReactNode;
  deletedMessage: string;
};

/**
 * A settings tab whose form stays above its table (companies, plans, helps): the row being edited (null
 * adds one), a form key that starts the form again empty after a save, a cancel or a clear, and the
 * delete confirm, which also empties the form when it held the deleted row.
 */
export const useInlineEditor = <T extends { id: number }>({
  onDelete,
  deleteTitle,
  deleteMessage,
  deletedMessage,
}: TInlineEditorOptions<T>) => {
  const [editing, setEditing] = useState<T | null>(null);
  const [version, setVersion] = useState(0);
  const reset = () => {
    setEditing(null);
    setVersion((v) => v + 1);
  };
  const remove = useDeleteConfirm<T>({
    onDelete: async (row) => {
      await onDelete(row);
      if (editing?.id === row.id) {
        reset();
      }
    },
    title: deleteTitle,
    message: () => deleteMessage,
    successMessage: deletedMessage,
  });

  return { editing, edit: setEditing, reset, formKey: `${editing?.id ?? 'new'}-${version}`, remove };
};
