import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import type { ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { type TSchemaFormOptions, useSchemaForm } from './useSchemaForm';

export type TFormDialogProps<TValues extends FieldValues, TOutput> = Omit<
  TSchemaFormOptions<TValues, TOutput>,
  'onDone'
> & {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  submitLabel?: string;
  /** prefix of the test ids: `<testId>-dialog`, `<testId>-save`, `<testId>-cancel` */
  testId?: string;
  maxWidth?: 'xs' | 'sm' | 'md' | 'lg';
  /** read-only: fields shown, no save */
  readOnly?: boolean;
  children: (form: UseFormReturn<TValues, unknown, TOutput>) => ReactNode;
};

/**
 * A dialog with a form bound to a shared zod schema: fields validated as the server will, a save that
 * closes on success and marks the fields of a 400 answer otherwise. The form is mounted when the dialog
 * opens, so it always starts from `defaultValues`.
 */
export const FormDialog = <TValues extends FieldValues, TOutput>(props: TFormDialogProps<TValues, TOutput>) => (
  <Dialog
    open={props.open}
    onClose={props.onClose}
    maxWidth={props.maxWidth ?? 'sm'}
    fullWidth
    scroll="paper"
    data-testid={props.testId ? `${props.testId}-dialog` : undefined}
  >
    {props.open && <DialogForm {...props} />}
  </Dialog>
);

const DialogForm = <TValues extends FieldValues, TOutput>({
  onClose,
  title,
  schema,
  defaultValues,
  onSubmit,
  successMessage,
  submitLabel,
  testId,
  readOnly,
  children,
}: TFormDialogProps<TValues, TOutput>) => {
  const { t } = useTranslation();
  // a throw keeps the dialog open
  const { form, submit } = useSchemaForm({ schema, defaultValues, onSubmit, successMessage, onDone: onClose });

  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2} sx={{ pt: 0.5 }}>
          {children(form)}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" data-testid={testId ? `${testId}-cancel` : undefined}>
          {readOnly ? t('common.close') : t('common.cancel')}
        </Button>
        {!readOnly && (
          <Button
            type="submit"
            variant="contained"
            disabled={form.formState.isSubmitting}
            data-testid={testId ? `${testId}-save` : undefined}
          >
            {submitLabel ?? t('common.save')}
          </Button>
        )}
      </DialogActions>
    </Box>
  );
};
