import { FULL_HEIGHT } from '../../app/layout/AppLayout';
import {
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { Alert, Box, CircularProgress } from '@mui/material';
import type { TKanbanTicket } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import type { TLaneKey } from './board';
import { KanbanCardBody } from './KanbanCard';
import { KanbanLane } from './KanbanLane';
import { useKanbanBoard } from './useKanbanBoard';
import './i18n';

const HEIGHT = FULL_HEIGHT;

/**
 * /kanban (plan useKanban): the "open" lane then one lane per kanban tag, side by side with horizontal
 * scroll (one lane per screen width on a phone); a card dragged to another lane moves the ticket there.
 */
const KanbanPage = () => {
  const { t } = useTranslation();
  const { board, isLoading, loadMore, move } = useKanbanBoard();
  const [dragged, setDragged] = useState<TKanbanTicket | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 8 } }),
    useSensor(KeyboardSensor),
  );

  const onDragStart = (event: DragStartEvent) => {
    setDragged((event.active.data.current?.ticket as TKanbanTicket | undefined) ?? null);
  };
  const onDragEnd = (event: DragEndEvent) => {
    setDragged(null);
    const ticket = event.active.data.current?.ticket as TKanbanTicket | undefined;
    const from = event.active.data.current?.from as string | undefined;
    const target = event.over?.data.current?.lane as TLaneKey | undefined;
    if (!ticket || target === undefined || event.over?.id === from) {
      return;
    }
    void move(ticket, target);
  };

  if (isLoading || !board) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={t('kanban.loading')} />
      </Box>
    );
  }

  return (
    <Box sx={{ height: HEIGHT, display: 'flex', flexDirection: 'column', minHeight: 0 }} data-testid="kanban-page">
      {board.lanes.length === 1 && (
        <Alert severity="info" sx={{ m: 1 }}>
          {t('kanban.noLanes')}
        </Alert>
      )}
      <DndContext
        sensors={sensors}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragged(null)}
      >
        <Box
          data-testid="kanban-lanes"
          sx={{
            flex: 1,
            minHeight: 0,
            display: 'flex',
            gap: 1.5,
            p: 1.5,
            overflowX: 'auto',
            overflowY: 'hidden',
            scrollSnapType: { xs: 'x mandatory', sm: 'none' },
            scrollPaddingInline: 12,
          }}
        >
          {board.lanes.map((lane) => (
            <KanbanLane key={String(lane.lane)} lane={lane} onLoadMore={loadMore} />
          ))}
        </Box>
        <DragOverlay>{dragged ? <KanbanCardBody ticket={dragged} overlay /> : null}</DragOverlay>
      </DndContext>
    </Box>
  );
};

export default KanbanPage;
