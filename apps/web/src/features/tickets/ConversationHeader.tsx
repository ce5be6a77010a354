import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import UndoIcon from '@mui/icons-material/Undo';
import {
  Avatar,
  Box,
  Button,
  ButtonBase,
  IconButton,
  Paper,
  Stack,
  Tooltip,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { TTicket } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { SlaChip } from '../sla/SlaChip';
import { TicketOptionsMenu } from './TicketOptionsMenu';
import { useTicketActions } from './useTicketActions';

type ConversationHeaderProps = {
  ticket: TTicket;
  onBack?: () => void;
  onContact: () => void;
  onTransfer: () => void;
};

/** Contact, assignee, and the ticket's actions by status (spec 1 §4). */
export const ConversationHeader = ({ ticket, onBack, onContact, onTransfer }: ConversationHeaderProps) => {
  const { t } = useTranslation();
  const actions = useTicketActions();
  const busy = actions.busyId === ticket.id;
  const compact = useMediaQuery((theme) => theme.breakpoints.down('sm'));

  return (
    <Paper square elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }} data-testid="conversation-header">
      <Stack direction="row" alignItems="center" spacing={1} sx={{ px: 1, py: 0.75 }}>
        {onBack ? (
          <IconButton onClick={onBack} aria-label={t('tickets.header.back')} data-testid="conversation-back">
            <ArrowBackIcon />
          </IconButton>
        ) : null}
        <ButtonBase
          onClick={onContact}
          sx={{ flex: 1, minWidth: 0, justifyContent: 'flex-start', borderRadius: 1, p: 0.5 }}
          data-testid="conversation-contact"
        >
          <Avatar src={ticket.contact?.profilePicUrl || undefined} alt={ticket.contact?.name} sx={{ mr: 1 }} />
          <Box sx={{ minWidth: 0, textAlign: 'left' }}>
            <Typography variant="subtitle1" noWrap data-testid="conversation-contact-name">
              {ticket.contact?.name}{' '}
              <Typography component="span" variant="caption" color="text.secondary">
                #{ticket.id}
              </Typography>
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="div">
              {ticket.user ? t('tickets.header.assignedTo', { name: ticket.user.name }) : ''}
              {ticket.queue ? ` · ${ticket.queue.name}` : ''}
              {ticket.whatsapp ? ` · ${ticket.whatsapp.name}` : ''}
            </Typography>
          </Box>
        </ButtonBase>
        <SlaChip ticket={ticket} testId="conversation-sla" />
        {ticket.status === 'pending' ? (
          <Button
            variant="contained"
            color="success"
            size="small"
            disabled={busy}
            onClick={() => void actions.accept(ticket)}
            data-testid={`ticket-accept-${ticket.id}`}
          >
            {t('tickets.accept')}
          </Button>
        ) : null}
        {ticket.status === 'open' ? (
          <>
            <Tooltip title={t('tickets.header.return')}>
              <span>
                {compact ? (
                  <IconButton
                    disabled={busy}
                    onClick={() => void actions.returnToPending(ticket)}
                    data-testid="ticket-return"
                    aria-label={t('tickets.header.return')}
                  >
                    <UndoIcon />
                  </IconButton>
                ) : (
                  <Button
                    size="small"
                    startIcon={<UndoIcon />}
                    disabled={busy}
                    onClick={() => void actions.returnToPending(ticket)}
                    data-testid="ticket-return"
                  >
                    {t('tickets.header.return')}
                  </Button>
                )}
              </span>
            </Tooltip>
            <Button
              variant="contained"
              size="small"
              color="primary"
              disabled={busy}
              onClick={() => void actions.close(ticket)}
              data-testid="ticket-resolve"
            >
              {t('tickets.header.resolve')}
            </Button>
          </>
        ) : null}
        {ticket.status === 'closed' ? (
          <Button
            variant="contained"
            size="small"
            disabled={busy}
            onClick={() => void actions.reopen(ticket)}
            data-testid={`ticket-reopen-${ticket.id}`}
          >
            {t('tickets.reopen')}
          </Button>
        ) : null}
        {ticket.status !== 'closed' ? (
          <Tooltip title={t('tickets.header.transfer')}>
            <IconButton onClick={onTransfer} aria-label={t('tickets.header.transfer')} data-testid="ticket-transfer">
              <SwapHorizIcon />
            </IconButton>
          </Tooltip>
        ) : null}
        <TicketOptionsMenu ticket={ticket} onTransfer={onTransfer} />
      </Stack>
    </Paper>
  );
};
