import ConfirmationNumber from '@mui/icons-material/ConfirmationNumber';
import { MenuItem, TextField } from '@mui/material';
import { Controller } from 'react-hook-form';
import { useTranslation } from '../../../i18n/useTranslation';
import { fieldErrorText } from '../../../components/form';
import { useOptions } from '../../connections/useOptions';
import { NodeFormDialog } from './NodeFormDialog';
import { NodeText } from './NodeShell';
import { text, ZTicketForm } from './nodeForms';
import type { TNodeData, TNodeDialogProps, TNodeSpec } from './nodeSpec';

type TQueueRef = { id?: unknown; name?: unknown };
/** The queue a ticket node hands over to: `data.data` as the ancestor adds it, or `data` as its edit left it. */
export const ticketQueue = (data: TNodeData | null): TQueueRef => {
  const inner = data?.data as TQueueRef | undefined;

  return inner && inner.id != null ? inner : ((data ?? {}) as TQueueRef);
};

const TicketBody = ({ data }: { data: TNodeData }) => {
  const { t } = useTranslation();
  const queue = ticketQueue(data);

  return (
    <NodeText>
      {queue.id != null ? t('flows.nodes.queue', { name: text(queue.name) }) : t('flows.nodes.noQueue')}
    </NodeText>
  );
};

/** Ticket/queue dialog: the queue the ticket is handed to ('Adicione uma fila' without one). */
const TicketDialog = ({ data, onSubmit, onClose }: TNodeDialogProps) => {
  const { t } = useTranslation();
  const queues = useOptions('/queue');
  const current = ticketQueue(data);

  return (
    <NodeFormDialog<{ queueId: string }, { queueId: number }>
      type="ticket"
      isEdit={data !== null}
      schema={ZTicketForm}
      defaultValues={{ queueId: current.id != null ? String(current.id) : '' }}
      toData={(v) => {
        const queue = queues.data?.find((q) => q.id === v.queueId);

        return { data: { id: v.queueId, name: queue?.name ?? text(current.name) } };
      }}
      onSubmit={onSubmit}
      onClose={onClose}
      maxWidth="xs"
    >
      {(form) => (
        <Controller
          name="queueId"
          control={form.control}
          render={({ field, fieldState }) => (
            <TextField
              select
              fullWidth
              label={t('flows.dialogs.queue')}
              value={field.value}
              onChange={(e) => field.onChange(e.target.value)}
              error={Boolean(fieldState.error)}
              helperText={fieldErrorText(t, fieldState.error)}
              slotProps={{ htmlInput: { 'data-testid': 'flow-ticket-queue' } }}
            >
              {(queues.data ?? []).map((q) => (
                <MenuItem key={q.id} value={String(q.id)}>
                  {q.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
    </NodeFormDialog>
  );
};

export const ticketSpec: TNodeSpec = {
  type: 'ticket',
  Icon: ConfirmationNumber,
  color: '#f7953b',
  Body: TicketBody,
  Dialog: TicketDialog,
  inPalette: true,
};
