import { type DefaultValues, type FieldValues, type Path, type UseFormReturn, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { applyFieldErrors } from '../applyFieldErrors';
import { formResolver } from '../formResolver';
import { toast, toastError } from '../toast';

export type TSchemaFormOptions<TValues extends FieldValues, TOutput> = {
  /** the shared zod schema the route validates with */
  schema: z.ZodType<TOutput>;
  defaultValues: DefaultValues<TValues>;
  /** saves; a throw marks the fields a 400 names and shows the error */
  onSubmit: (values: TOutput, form: UseFormReturn<TValues, unknown, TOutput>) => Promise<unknown>;
  /** toast after a save */
  successMessage?: string;
  /** after a save (a dialog closes, an inline form starts again empty) */
  onDone?: () => void;
};

/**
 * A form bound to a shared zod schema, validated as the server will, whose save toasts and calls `onDone`,
 * or marks the fields of a 400 answer and shows the error. `FormDialog` is built on it; an inline form
 * (the settings tabs) uses it directly:
 *
 *   const { form, submit } = useSchemaForm({ schema: ZPlanBody, defaultValues, onSubmit: save, onDone });
 *   <Box component="form" onSubmit={submit} noValidate>…<FormTextField form={form} name="name" …/></Box>
 */
export const useSchemaForm = <TValues extends FieldValues, TOutput>({
  schema,
  defaultValues,
  onSubmit,
  successMessage,
  onDone,
}: TSchemaFormOptions<TValues, TOutput>) => {
  const form = useForm<TValues, unknown, TOutput>({ resolver: formResolver<TValues, TOutput>(schema), defaultValues });

  const submit = form.handleSubmit(async (values: TOutput) => {
    try {
      await onSubmit(values, form);
      if (successMessage) {
        toast.success(successMessage);
      }
      onDone?.();
    } catch (err) {
      applyFieldErrors(err, Object.keys(form.getValues()) as Path<TValues>[], form.setError);
      toastError(err);
    }
  });

  return { form, submit };
};
