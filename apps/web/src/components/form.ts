import type { TFunction } from '../i18n/translator';
import type { FieldError } from 'react-hook-form';

/** A field's message is an i18n key of the shared schemas (`required`, `tooShort`…): `validation.<key>`. */
export const fieldErrorText = (t: TFunction, error: Pick<FieldError, 'message'> | undefined): string | undefined => {
  if (!error?.message || typeof error.message !== 'string') {
    return undefined;
  }

  return t(`validation.${error.message}`, { defaultValue: error.message });
};
