import SmartToyIcon from '@mui/icons-material/SmartToy';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Avatar, Badge, Box, Button, Chip, IconButton, ListItemButton, Stack, Typography } from '@mui/material';
import type { TTicket } from '@zelo/shared';
import { memo } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { SlaChip } from '../sla/SlaChip';
import { formatTicketTime, lastMessagePreview, shortenName } from './messageLogic';
import { Hint } from '../../components/Hint';

type TicketRowProps = {
  ticket: TTicket;
  selected: boolean;
  narrow: boolean;
  isAdmin: boolean;
  busy: boolean;
  onOpen: (ticket: TTicket) => void;
  onAccept: (ticket: TTicket) => void;
  onClose: (ticket: TTicket) => void;
  onReopen: (ticket: TTicket) => void;
  onPeek: (ticket: TTicket) => void;
};

/** One ticket of the manager (spec 1 §2): every field, and Accept / Close / Reopen / peek. */
const TicketRowBase = ({
  ticket,
  selected,
  narrow,
  isAdmin,
  busy,
  onOpen,
  onAccept,
  onClose,
  onReopen,
  onPeek,
}: TicketRowProps) => {
  const { t } = useTranslation();
  const pending = ticket.status === 'pending';
  const stop = (fn: (ticket: TTicket) => void) => (e: React.MouseEvent) => {
    e.stopPropagation();
    fn(ticket);
  };

  return (
    <ListItemButton
      selected={selected}
      onClick={() => {
        // a pending ticket opens only after it is accepted (spec 1 §2)
        if (!pending) {
          onOpen(ticket);
        }
      }}
      data-testid={`ticket-row-${ticket.id}`}
      data-status={ticket.status}
      data-unread={ticket.unreadMessages}
      sx={{
        position: 'relative',
        alignItems: 'flex-start',
        gap: 1.5,
        pl: 2,
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
        cursor: pending ? 'default' : 'pointer',
      }}
    >
      <Box
        aria-hidden
        sx={{ position: 'absolute', left: 0, top: 0, bottom: 0, width: 6, bgcolor: ticket.queue?.color ?? 'grey.400' }}
      />
      <Avatar src={ticket.contact?.profilePicUrl || undefined} alt={ticket.contact?.name} sx={{ mt: 0.5 }} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" alignItems="center" spacing={0.5}>
          <Typography variant="subtitle2" noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="ticket-row-name">
            {shortenName(ticket.contact?.name ?? '', narrow)}
          </Typography>
          {ticket.chatbot ? (
            <Hint title={t('tickets.chatbot')}>
              <SmartToyIcon fontSize="small" color="action" data-testid={`ticket-chatbot-${ticket.id}`} />
            </Hint>
          ) : null}
          <Typography variant="caption" color={ticket.unreadMessages > 0 ? 'success.main' : 'text.secondary'}>
            {formatTicketTime(ticket.updatedAt)}
          </Typography>
        </Stack>
        <Stack direction="row" alignItems="center" spacing={1}>
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }}>
            {lastMessagePreview(ticket.lastMessage, (key) => t(`tickets.previewLabels.${key}`))}
          </Typography>
          {ticket.unreadMessages > 0 ? (
            <Badge
              badgeContent={ticket.unreadMessages}
              color="success"
              max={999}
              sx={{ mr: 1 }}
              data-testid={`ticket-unread-${ticket.id}`}
            />
          ) : null}
        </Stack>
        <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap" sx={{ mt: 0.5 }}>
          <SlaChip ticket={ticket} />
          {ticket.whatsapp?.name ? <Chip size="small" variant="outlined" label={ticket.whatsapp.name} /> : null}
          {ticket.user?.name ? <Chip size="small" color="primary" variant="outlined" label={ticket.user.name} /> : null}
          <Chip
            size="small"
            label={ticket.queue?.name ?? t('tickets.noQueue')}
            sx={{ bgcolor: ticket.queue?.color ?? 'grey.500', color: '#fff' }}
          />
          {ticket.tags?.map((tag) => (
            <Chip key={tag.id} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: '#fff' }} />
          ))}
        </Stack>
      </Box>
      <Stack spacing={0.5} alignItems="flex-end" sx={{ flexShrink: 0 }}>
        {isAdmin ? (
          <Hint title={t('tickets.peek')}>
            <IconButton size="small" onClick={stop(onPeek)} data-testid={`ticket-peek-${ticket.id}`}>
              <VisibilityIcon fontSize="small" />
            </IconButton>
          </Hint>
        ) : null}
        {pending ? (
          <Button
            size="small"
            variant="contained"
            color="success"
            disabled={busy}
            onClick={stop(onAccept)}
            data-testid={`ticket-accept-${ticket.id}`}
          >
            {t('tickets.accept')}
          </Button>
        ) : null}
        {ticket.status !== 'closed' ? (
          <Button
            size="small"
            variant="outlined"
            color="error"
            disabled={busy}
            onClick={stop(onClose)}
            data-testid={`ticket-close-${ticket.id}`}
          >
            {t('tickets.close')}
          </Button>
        ) : (
          <Button
            size="small"
            variant="outlined"
            disabled={busy}
            onClick={stop(onReopen)}
            data-testid={`ticket-reopen-${ticket.id}`}
          >
            {t('tickets.reopen')}
          </Button>
        )}
      </Stack>
    </ListItemButton>
  );
};

export const TicketRow = memo(TicketRowBase);
