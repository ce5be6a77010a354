import Ballot from '@mui/icons-material/Ballot';
import { useTranslation } from '../../../i18n/useTranslation';
import { FormTextField } from '../../../components/kit';
import { NodeFormDialog } from './NodeFormDialog';
import { NodeText } from './NodeShell';
import { integrationOf, questionData, text, ZQuestionForm } from './nodeForms';
import type { TNodeDialogProps, TNodeSpec } from './nodeSpec';
import { insertVariable, VariableChips, variableToken } from './VariableChips';

const QuestionBody = ({ data }: { data: Record<string, unknown> }) => {
  const { t } = useTranslation();
  const q = integrationOf(data);

  return (
    <>
      <NodeText lines={3}>{text(q.message)}</NodeText>
      <NodeText lines={1}>{t('flows.nodes.answerKey', { key: variableToken(text(q.answerKey)) })}</NodeText>
    </>
  );
};

/** Question dialog: a message (7 rows) and the answer key, the variable the answer is saved in. */
const QuestionDialog = ({ data, variables, onSubmit, onClose }: TNodeDialogProps) => {
  const { t } = useTranslation();
  const q = integrationOf(data);

  return (
    <NodeFormDialog
      type="question"
      isEdit={data !== null}
      titles={{ add: t('flows.dialogs.question.addTitle'), edit: t('flows.dialogs.question.editTitle') }}
      schema={ZQuestionForm}
      defaultValues={{ message: text(q.message), answerKey: text(q.answerKey) }}
      toData={questionData}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {(form) => (
        <>
          <FormTextField
            form={form}
            name="message"
            label={t('flows.dialogs.question.message')}
            multiline
            rows={7}
            required
            autoFocus
            testId="flow-question-message"
          />
          <VariableChips
            variables={variables}
            onPick={(name) => form.setValue('message', insertVariable(form.getValues('message'), name))}
          />
          <FormTextField
            form={form}
            name="answerKey"
            label={t('flows.dialogs.question.answerKey')}
            helperText={t('flows.dialogs.question.answerKeyHint')}
            required
            testId="flow-question-answer-key"
          />
        </>
      )}
    </NodeFormDialog>
  );
};

export const questionSpec: TNodeSpec = {
  type: 'question',
  Icon: Ballot,
  color: '#e0533c',
  Body: QuestionBody,
  Dialog: QuestionDialog,
  inPalette: true,
};
