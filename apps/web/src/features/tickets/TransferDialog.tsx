import {
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormHelperText,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
} from '@mui/material';
import type { TTicket } from '@zelo/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { toast, toastError } from '../../components/toast';
import { useDebounce } from '../../hooks/useDebounce';
import { ticketsApi } from './ticketsApi';
import type { TUserOption } from './ticketTypes';
import { matchUsers, USER_SEARCH_MIN } from './dialogLogic';
import { useAllQueues, useUserOptions, useWhatsappOptions } from './useCatalogue';
import { applyTicketEvent } from './useTicketEvents';
import { useViewer } from './useViewer';

type TransferDialogProps = { open: boolean; ticket: TTicket; onClose: () => void };

/** Transfer to a queue (required) and optionally a user; without a user the ticket goes back to pending. */
export const TransferDialog = ({ open, ticket, onClose }: TransferDialogProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const viewer = useViewer();
  const queryClient = useQueryClient();
  const queues = useAllQueues();
  const users = useUserOptions(open);
  const whatsapps = useWhatsappOptions(open && viewer.isAdmin);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [user, setUser] = useState<TUserOption | null>(null);
  const [term, setTerm] = useState('');
  const debounced = useDebounce(term, 500);
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (open) {
      setQueueId('');
      setUser(null);
      setTerm('');
      setWhatsappId('');
      setTouched(false);
    }
  }, [open]);

  const options = useMemo(
    () => matchUsers(users.data ?? [], debounced, queueId === '' ? null : queueId),
    [users.data, debounced, queueId],
  );

  const confirm = async () => {
    setTouched(true);
    if (queueId === '') {
      return;
    }
    setSaving(true);
    try {
      const updated = await ticketsApi.update(ticket.id, {
        queueId,
        userId: user?.id ?? null,
        status: user ? 'open' : 'pending',
        ...(whatsappId !== '' ? { whatsappId } : {}),
      });
      if (updated && typeof updated === 'object' && 'id' in updated) {
        applyTicketEvent(queryClient, { action: 'update', ticket: updated }, viewer);
      }
      toast.success(t('tickets.transfer.done'));
      onClose();
      navigate('/tickets');
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth data-testid="transfer-dialog">
      <DialogTitle>{t('tickets.transfer.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <FormControl fullWidth size="small" error={touched && queueId === ''} required>
            <InputLabel id="transfer-queue-label">{t('tickets.transfer.queue')}</InputLabel>
            <Select
              labelId="transfer-queue-label"
              label={t('tickets.transfer.queue')}
              value={queueId}
              onChange={(e) => {
                setQueueId(String(e.target.value) === '' ? '' : Number(e.target.value));
                setUser(null);
              }}
              data-testid="transfer-queue"
              inputProps={{ 'data-testid': 'transfer-queue-input' }}
            >
              {(queues.data ?? []).map((queue) => (
                <MenuItem key={queue.id} value={queue.id} data-testid={`transfer-queue-option-${queue.id}`}>
                  {queue.name}
                </MenuItem>
              ))}
            </Select>
            {touched && queueId === '' ? <FormHelperText>{t('tickets.transfer.queueRequired')}</FormHelperText> : null}
          </FormControl>
          <Autocomplete
            size="small"
            options={options}
            value={user}
            onChange={(_e, value) => setUser(value)}
            inputValue={term}
            onInputChange={(_e, value) => setTerm(value)}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            filterOptions={(list) => list}
            noOptionsText={
              term.trim().length < USER_SEARCH_MIN ? t('tickets.transfer.userHint') : t('tickets.transfer.noOptions')
            }
            data-testid="transfer-user"
            renderInput={(params) => (
              <TextField
                {...params}
                label={t('tickets.transfer.user')}
                helperText={t('tickets.transfer.userHint')}
                inputProps={{ ...params.inputProps, 'data-testid': 'transfer-user-input' }}
              />
            )}
          />
          {viewer.isAdmin ? (
            <FormControl fullWidth size="small">
              <InputLabel id="transfer-whatsapp-label">{t('tickets.transfer.connection')}</InputLabel>
              <Select
                labelId="transfer-whatsapp-label"
                label={t('tickets.transfer.connection')}
                value={whatsappId}
                onChange={(e) => setWhatsappId(String(e.target.value) === '' ? '' : Number(e.target.value))}
              >
                <MenuItem value="">{t('tickets.transfer.keepConnection')}</MenuItem>
                {(whatsapps.data ?? []).map((w) => (
                  <MenuItem key={w.id} value={w.id}>
                    {w.name} ({w.status})
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t('tickets.transfer.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void confirm()} disabled={saving} data-testid="transfer-confirm">
          {t('tickets.transfer.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
