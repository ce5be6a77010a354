import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import type { TConnection, TContact } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { ApiError, api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { toastError } from '../../components/toast';
import { useConnections } from '../connections/useConnections';
import { useOptions } from '../connections/useOptions';
import '../connections/i18n';

type THolder = {
  uuid: string;
  userId: number | null;
  user: { id: number; name: string } | null;
  queue: { id: number; name: string } | null;
};

type TFormProps = { contact: TContact; onClose: () => void };

const OpenTicketForm = ({ contact, onClose }: TFormProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user, isAdmin } = useAuth();
  // admins may use any queue; other users their own
  const { data: allQueues = [] } = useOptions('/queue', isAdmin);
  const queues = isAdmin ? allQueues : (user?.queues ?? []);
  const { data: connections = [] } = useConnections();
  const defaultConnection =
    connections.find((c) => c.id === user?.whatsappId) ?? connections.find((c) => c.isDefault) ?? connections[0];
  const [queueId, setQueueId] = useState<string>(() =>
    !isAdmin && user?.queues.length === 1 ? String(user.queues[0].id) : '',
  );
  const [whatsappId, setWhatsappId] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const [queueError, setQueueError] = useState(false);
  const [holder, setHolder] = useState<THolder | null>(null);
  const chosenConnection = whatsappId || (defaultConnection ? String(defaultConnection.id) : '');

  const submit = async () => {
    // a queue must be chosen unless the user is admin (spec 1 §5)
    if (!isAdmin && queues.length > 0 && !queueId) {
      setQueueError(true);

      return;
    }
    setBusy(true);
    setHolder(null);
    try {
      const ticket = await api.post<{ uuid: string }>('/tickets', {
        contactId: contact.id,
        queueId: queueId ? Number(queueId) : null,
        whatsappId: chosenConnection ? Number(chosenConnection) : null,
        userId: user?.id,
        status: 'open',
      });
      onClose();
      navigate(`/tickets/${ticket.uuid}`);
    } catch (err) {
      const held = err instanceof ApiError ? (err.body?.ticket as THolder | undefined) : undefined;
      if (err instanceof ApiError && err.code === 'ERR_OTHER_OPEN_TICKET' && held?.uuid) {
        if (held.userId === user?.id) {
          // the user's own ticket: open it
          onClose();
          navigate(`/tickets/${held.uuid}`);

          return;
        }
        setHolder(held);
      }
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const statusLabel = (c: TConnection) => t(`connections.status.${c.status}`);

  return (
    <>
      <DialogTitle>{t('contacts.ticket.title', { name: contact.name })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          {queues.length > 0 && (
            <TextField
              select
              fullWidth
              label={t('contacts.ticket.queue')}
              value={queueId}
              onChange={(e) => {
                setQueueId(e.target.value);
                setQueueError(false);
              }}
              error={queueError}
              helperText={queueError ? t('contacts.ticket.selectQueue') : undefined}
              slotProps={{ htmlInput: { 'data-testid': 'contact-ticket-queue' } }}
            >
              {isAdmin && (
                <MenuItem value="">
                  <em>{t('contacts.ticket.noQueue')}</em>
                </MenuItem>
              )}
              {queues.map((q) => (
                <MenuItem key={q.id} value={String(q.id)}>
                  {q.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            select
            fullWidth
            label={t('contacts.ticket.connection')}
            value={chosenConnection}
            onChange={(e) => setWhatsappId(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'contact-ticket-connection' } }}
          >
            {connections.length === 0 && (
              <MenuItem value="" disabled>
                {t('contacts.ticket.noConnection')}
              </MenuItem>
            )}
            {connections.map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>
                {c.name} — {statusLabel(c)}
              </MenuItem>
            ))}
          </TextField>
          {holder && (
            <Alert severity="warning" data-testid="contact-ticket-holder">
              {holder.user
                ? t('contacts.ticket.heldBy', {
                    user: holder.user.name,
                    queue: holder.queue?.name ?? t('contacts.ticket.noQueue'),
                  })
                : t('errors.ERR_OTHER_OPEN_TICKET')}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy} data-testid="contact-ticket-open">
          {t('contacts.ticket.open')}
        </Button>
      </DialogActions>
    </>
  );
};

type TOpenTicketDialogProps = { contact: TContact | null; onClose: () => void };

/** Open a ticket with a contact (POST /tickets, status open), then go to the conversation. */
export const OpenTicketDialog = ({ contact, onClose }: TOpenTicketDialogProps) => (
  <Dialog open={contact !== null} onClose={onClose} maxWidth="xs" fullWidth data-testid="contact-ticket-dialog">
    {contact && <OpenTicketForm key={contact.id} contact={contact} onClose={onClose} />}
  </Dialog>
);
