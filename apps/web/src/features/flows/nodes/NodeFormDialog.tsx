import type { ReactNode } from 'react';
import type { DefaultValues, FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../../../i18n/useTranslation';
import type { z } from 'zod';
import { FormDialog } from '../../../components/kit';
import '../i18n';
import type { TNodeType } from '../flowDocument';
import type { TNodeData } from './nodeSpec';

type TNodeFormDialogProps<TValues extends FieldValues, TOutput> = {
  type: TNodeType;
  /** editing an existing node (else adding one) */
  isEdit: boolean;
  schema: z.ZodType<TOutput>;
  defaultValues: DefaultValues<TValues>;
  /** the node's data from the form's values */
  toData: (values: TOutput) => TNodeData | Promise<TNodeData>;
  onSubmit: (data: TNodeData) => void;
  onClose: () => void;
  /** the spec's own titles (OpenAI, question) */
  titles?: { add: string; edit: string };
  successMessage?: string;
  maxWidth?: 'xs' | 'sm' | 'md';
  children: (form: UseFormReturn<TValues, unknown, TOutput>) => ReactNode;
};

/**
 * A node's add/edit dialog (spec 3 §2.9, §4): the form validated by the node's schema, "Adicionar" or "Editar",
 * and on success the node's data handed to the editor, which adds the node or replaces the edited one.
 */
export const NodeFormDialog = <TValues extends FieldValues, TOutput>({
  type,
  isEdit,
  schema,
  defaultValues,
  toData,
  onSubmit,
  onClose,
  titles,
  successMessage,
  maxWidth,
  children,
}: TNodeFormDialogProps<TValues, TOutput>) => {
  const { t } = useTranslation();
  const typeName = t(`flows.types.${type}`);
  const title = isEdit
    ? (titles?.edit ?? t('flows.dialogs.editTitle', { type: typeName }))
    : (titles?.add ?? t('flows.dialogs.addTitle', { type: typeName }));

  return (
    <FormDialog<TValues, TOutput>
      open
      onClose={onClose}
      title={title}
      schema={schema}
      defaultValues={defaultValues}
      onSubmit={async (values) => onSubmit(await toData(values))}
      successMessage={successMessage}
      submitLabel={isEdit ? t('flows.dialogs.edit') : t('flows.dialogs.add')}
      testId={`flow-dialog-${type}`}
      maxWidth={maxWidth ?? 'sm'}
    >
      {children}
    </FormDialog>
  );
};
