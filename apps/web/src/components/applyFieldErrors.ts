import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

type TDetail = { path: string; message: string };

/**
 * Puts the field messages of a 400 answer (`details: [{path, message}]`, messages are i18n keys) on the form.
 * Returns whether any field was marked.
 */
export const applyFieldErrors = <TValues extends FieldValues>(
  err: unknown,
  fields: readonly Path<TValues>[],
  setError: UseFormSetError<TValues>,
): boolean => {
  const details = (err as { details?: TDetail[] } | null)?.details;
  if (!Array.isArray(details)) {
    return false;
  }
  let marked = false;
  for (const detail of details) {
    const field = fields.find((f) => f === detail.path);
    if (field) {
      setError(field, { type: 'server', message: detail.message });
      marked = true;
    }
  }

  return marked;
};
