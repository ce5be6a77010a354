import { useCallback, useState } from 'react';

/**
 * The add/edit dialog of a list screen: `editing` is undefined while closed, null when adding, the record when
 * editing; `key` changes on every opening, so a dialog mounted with it starts afresh each time.
 *
 *   const dialog = useEditDialog<TPrompt>();
 *   <PromptDialog key={dialog.key} open={dialog.isOpen} prompt={dialog.editing ?? null} onClose={dialog.close} />
 */
export const useEditDialog = <T>() => {
  const [editing, setEditing] = useState<T | null | undefined>(undefined);
  const [key, setKey] = useState(0);
  const open = useCallback((record: T | null) => {
    setKey((n) => n + 1);
    setEditing(record);
  }, []);
  const close = useCallback(() => setEditing(undefined), []);

  return { editing, key, isOpen: editing !== undefined, open, close };
};
