import { TextField, type TextFieldProps } from '@mui/material';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { fieldErrorText } from '../form';

type TFormTextFieldProps<TValues extends FieldValues, TOutput> = Omit<TextFieldProps, 'name' | 'form'> & {
  form: UseFormReturn<TValues, unknown, TOutput>;
  name: Path<TValues>;
  /** `data-testid` of the input */
  testId?: string;
};

/** A text field registered on the form, showing its validation message (an i18n key of the shared schemas). */
export const FormTextField = <TValues extends FieldValues, TOutput>({
  form,
  name,
  testId,
  helperText,
  slotProps,
  ...props
}: TFormTextFieldProps<TValues, TOutput>) => {
  const { t } = useTranslation();
  const error = form.getFieldState(name, form.formState).error;

  return (
    <TextField
      {...form.register(name)}
      fullWidth
      {...props}
      error={Boolean(error)}
      helperText={fieldErrorText(t, error) ?? helperText}
      slotProps={{ ...slotProps, htmlInput: { ...(slotProps?.htmlInput as object), 'data-testid': testId } }}
    />
  );
};
