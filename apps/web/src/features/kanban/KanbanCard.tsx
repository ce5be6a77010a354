import { useDraggable } from '@dnd-kit/core';
import { Box, Button, Chip, Paper, Typography } from '@mui/material';
import type { TKanbanTicket } from '@zelo/shared';
import { memo } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import '../tickets/i18n';
import { lastMessagePreview } from '../tickets/messageLogic';
import './i18n';

type TCardBodyProps = { ticket: TKanbanTicket; dragging?: boolean; overlay?: boolean };

/** what a card shows: contact, number, last message, tags, and "see ticket" (spec 2 §2) */
export const KanbanCardBody = ({ ticket, dragging, overlay }: TCardBodyProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();

  return (
    <Paper
      variant="outlined"
      sx={{
        p: 1.5,
        opacity: dragging ? 0.4 : 1,
        boxShadow: overlay ? 6 : 0,
        cursor: overlay ? 'grabbing' : 'grab',
        bgcolor: 'background.paper',
      }}
    >
      <Typography variant="caption" color="text.secondary">
        {t('kanban.ticket', { id: ticket.id })}
      </Typography>
      <Typography variant="subtitle2" noWrap title={ticket.contact.name}>
        {ticket.contact.name}
      </Typography>
      <Typography variant="body2" color="text.secondary" noWrap>
        {ticket.contact.number}
      </Typography>
      {ticket.lastMessage && (
        <Typography
          variant="body2"
          sx={{ mt: 0.5, display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
        >
          {lastMessagePreview(ticket.lastMessage, (key) => t(`tickets.previewLabels.${key}`))}
        </Typography>
      )}
      {ticket.tags.length > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 1 }}>
          {ticket.tags.map((tag) => (
            <Chip
              key={tag.id}
              size="small"
              label={tag.name}
              sx={(theme) => ({
                bgcolor: tag.color,
                color: theme.palette.getContrastText(tag.color),
                maxWidth: '100%',
              })}
            />
          ))}
        </Box>
      )}
      <Button
        size="small"
        variant="contained"
        sx={{ mt: 1 }}
        // a click, not the start of a drag
        onPointerDown={(e) => e.stopPropagation()}
        onClick={() => navigate(`/tickets/${ticket.uuid}`)}
        data-testid={`kanban-see-${ticket.id}`}
      >
        {t('kanban.seeTicket')}
      </Button>
    </Paper>
  );
};

/** a card that can be dragged to another lane */
export const KanbanCard = memo(({ ticket, laneKey }: { ticket: TKanbanTicket; laneKey: string }) => {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: `card-${laneKey}-${ticket.id}`,
    data: { ticket, from: laneKey },
  });

  return (
    <Box
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      data-testid={`kanban-card-${ticket.id}`}
      sx={{ touchAction: 'manipulation' }}
    >
      <KanbanCardBody ticket={ticket} dragging={isDragging} />
    </Box>
  );
});
