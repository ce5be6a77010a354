import AccessTime from '@mui/icons-material/AccessTime';
import { useTranslation } from '../../../i18n/useTranslation';
import { FormTextField } from '../../../components/kit';
import { NodeFormDialog } from './NodeFormDialog';
import { NodeText } from './NodeShell';
import { INTERVAL_MAX, INTERVAL_MIN, intervalData, text, ZIntervalForm } from './nodeForms';
import type { TNodeDialogProps, TNodeSpec } from './nodeSpec';

const IntervalBody = ({ data }: { data: Record<string, unknown> }) => {
  const { t } = useTranslation();

  return <NodeText>{t('flows.nodes.seconds', { sec: text(data.sec) })}</NodeText>;
};

/** Interval dialog: 1 to 120 seconds ('Adicione o valor de intervalo', 'Máximo de tempo atingido 120 segundos'). */
const IntervalDialog = ({ data, onSubmit, onClose }: TNodeDialogProps) => {
  const { t } = useTranslation();

  return (
    <NodeFormDialog<{ sec: string }, { sec: number }>
      type="interval"
      isEdit={data !== null}
      schema={ZIntervalForm}
      defaultValues={{ sec: text(data?.sec) }}
      toData={(v) => intervalData(v.sec)}
      onSubmit={onSubmit}
      onClose={onClose}
      maxWidth="xs"
    >
      {(form) => (
        <FormTextField
          form={form}
          name="sec"
          type="number"
          label={t('flows.dialogs.seconds')}
          required
          autoFocus
          testId="flow-interval-sec"
          slotProps={{ htmlInput: { min: INTERVAL_MIN, max: INTERVAL_MAX } }}
        />
      )}
    </NodeFormDialog>
  );
};

export const intervalSpec: TNodeSpec = {
  type: 'interval',
  Icon: AccessTime,
  color: '#f7953b',
  Body: IntervalBody,
  Dialog: IntervalDialog,
  inPalette: true,
};
