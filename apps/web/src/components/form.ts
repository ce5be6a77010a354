import type { TFunction } from 'i18next';
import type { FieldError, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../api/http';

/** A field's message is an i18n key of the shared schemas (`required`, `tooShort`…): `validation.<key>`. */
export const fieldErrorText = (t: TFunction, error: Pick<FieldError, 'message'> | undefined): string | undefined => {
  if (!error?.message || typeof error.message !== 'string') {
    return undefined;
  }

  return t(`validation.${error.message}`, { defaultValue: error.message });
};

/** Marks the fields named in a 400 answer's `details`; returns whether any field was marked. */
export const applyServerFieldErrors = <T extends FieldValues>(
  err: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): boolean => {
  if (!(err instanceof ApiError) || !err.details) {
    return false;
  }
  let marked = false;
  for (const detail of err.details) {
    const field = fields.find((f) => f === detail.path);
    if (field) {
      setError(field, { type: 'server', message: detail.message });
      marked = true;
    }
  }

  return marked;
};
