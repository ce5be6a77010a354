import MoreVertIcon from '@mui/icons-material/MoreVert';
import { IconButton, Menu, MenuItem, Tooltip } from '@mui/material';
import type { TTicket } from '@zelo/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { useAuth } from '../../app/auth/AuthContext';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { toast, toastError } from '../../components/toast';
import { ScheduleDialog } from '../schedules/ScheduleDialog';
import { removeTicket } from './ticketListReducer';
import { ticketsApi } from './ticketsApi';
import { updateTicketLists } from './useTicketEvents';
import { useViewer } from './useViewer';

type TicketOptionsMenuProps = { ticket: TTicket; onTransfer: () => void };

/** Transfer, schedule a message to the ticket's contact (plan useSchedules), and delete for admins (after confirmation). */
export const TicketOptionsMenu = ({ ticket, onTransfer }: TicketOptionsMenuProps) => {
  const { t } = useTranslation();
  const viewer = useViewer();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [scheduling, setScheduling] = useState<number | null>(null);
  const { hasPlanFlag } = useAuth();
  const canSchedule = hasPlanFlag('useSchedules') && Boolean(ticket.contact);

  const remove = async () => {
    try {
      await ticketsApi.remove(ticket.id);
      updateTicketLists(queryClient, (list) => removeTicket(list, ticket.id));
      toast.success(t('tickets.options.deleted'));
      navigate('/tickets');
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <>
      <Tooltip title={t('tickets.header.options')}>
        <IconButton
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={t('tickets.header.options')}
          data-testid="ticket-options"
        >
          <MoreVertIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            onTransfer();
          }}
          data-testid="ticket-options-transfer"
        >
          {t('tickets.options.transfer')}
        </MenuItem>
        {canSchedule ? (
          <MenuItem
            onClick={() => {
              setAnchor(null);
              setScheduling(Date.now());
            }}
            data-testid="ticket-options-schedule"
          >
            {t('schedules.menu')}
          </MenuItem>
        ) : null}
        {viewer.isAdmin ? (
          <MenuItem
            onClick={() => {
              setAnchor(null);
              setConfirming(true);
            }}
            data-testid="ticket-options-delete"
            sx={{ color: 'error.main' }}
          >
            {t('tickets.options.delete')}
          </MenuItem>
        ) : null}
      </Menu>
      {scheduling !== null && ticket.contact ? (
        <ScheduleDialog
          key={scheduling}
          open
          schedule={null}
          initialContact={ticket.contact}
          ticketId={ticket.id}
          onClose={() => setScheduling(null)}
        />
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={t('tickets.options.deleteTitle', { name: ticket.contact?.name ?? '' })}
        onClose={() => setConfirming(false)}
        onConfirm={() => void remove()}
      >
        {t('tickets.options.deleteMessage')}
      </ConfirmDialog>
    </>
  );
};
