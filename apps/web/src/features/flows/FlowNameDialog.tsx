import { type TFlowSummary, zFlowName } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { z } from 'zod';
import { FormDialog, FormTextField } from '../../components/kit';
import './i18n';
import { createFlow, renameFlow } from './flowsApi';

const ZFlowNameForm = z.object({ name: zFlowName() });

type TFlowNameDialogProps = {
  open: boolean;
  /** null adds a flow */
  flow: TFlowSummary | null;
  onSaved: (flow: TFlowSummary) => void;
  onClose: () => void;
};

/** Adds a flow or renames one (spec 3 §5: 2 to 50 characters). */
export const FlowNameDialog = ({ open, flow, onSaved, onClose }: TFlowNameDialogProps) => {
  const { t } = useTranslation();
  const isEdit = flow !== null;

  return (
    <FormDialog<{ name: string }, { name: string }>
      open={open}
      onClose={onClose}
      title={isEdit ? t('flows.nameDialog.editTitle') : t('flows.nameDialog.addTitle')}
      schema={ZFlowNameForm}
      defaultValues={{ name: flow?.name ?? '' }}
      onSubmit={async ({ name }) => onSaved(isEdit ? await renameFlow(flow.id, name) : await createFlow(name))}
      successMessage={isEdit ? t('flows.renamed') : t('flows.created')}
      submitLabel={isEdit ? t('common.save') : t('flows.nameDialog.add')}
      testId="flow-name"
      maxWidth="xs"
    >
      {(form) => (
        <FormTextField
          form={form}
          name="name"
          label={t('flows.nameDialog.name')}
          required
          autoFocus
          testId="flow-name-input"
        />
      )}
    </FormDialog>
  );
};
