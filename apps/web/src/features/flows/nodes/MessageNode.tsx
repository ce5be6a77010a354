import Message from '@mui/icons-material/Message';
import { useTranslation } from '../../../i18n/useTranslation';
import { FormTextField } from '../../../components/kit';
import { NodeFormDialog } from './NodeFormDialog';
import { NodeText } from './NodeShell';
import { text, ZMessageForm } from './nodeForms';
import type { TNodeDialogProps, TNodeSpec } from './nodeSpec';
import { insertVariable, VariableChips } from './VariableChips';

const MessageBody = ({ data }: { data: Record<string, unknown> }) => <NodeText>{text(data.label)}</NodeText>;

/** Message dialog: one text, stored as `data.label`. */
const MessageDialog = ({ data, variables, onSubmit, onClose }: TNodeDialogProps) => {
  const { t } = useTranslation();

  return (
    <NodeFormDialog
      type="message"
      isEdit={data !== null}
      schema={ZMessageForm}
      defaultValues={{ text: text(data?.label) }}
      toData={(v) => ({ label: v.text })}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {(form) => (
        <>
          <FormTextField
            form={form}
            name="text"
            label={t('flows.dialogs.text')}
            multiline
            minRows={5}
            required
            autoFocus
            testId="flow-message-text"
          />
          <VariableChips
            variables={variables}
            onPick={(name) => form.setValue('text', insertVariable(form.getValues('text'), name))}
          />
        </>
      )}
    </NodeFormDialog>
  );
};

export const messageSpec: TNodeSpec = {
  type: 'message',
  Icon: Message,
  color: '#6b62fe',
  Body: MessageBody,
  Dialog: MessageDialog,
  inPalette: true,
};
