import { useDroppable } from '@dnd-kit/core';
import { Box, CircularProgress, Paper, Typography } from '@mui/material';
import { KANBAN_OPEN_LANE, type TKanbanLane } from '@zelo/shared';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { laneId } from './board';
import { KanbanCard } from './KanbanCard';
import './i18n';

const CARD_ESTIMATE = 170;

/** A lane: its title in the tag's colour, its count, and its cards virtualized; the next page near the end. */
export const KanbanLane = ({ lane, onLoadMore }: { lane: TKanbanLane; onLoadMore: (lane: TKanbanLane) => void }) => {
  const { t } = useTranslation();
  const key = laneId(lane.lane);
  const { setNodeRef, isOver } = useDroppable({ id: key, data: { lane: lane.lane } });
  const $scroll = useRef<HTMLDivElement | null>(null);
  const rows = lane.tickets.length + (lane.hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => $scroll.current,
    estimateSize: () => CARD_ESTIMATE,
    overscan: 4,
    gap: 8,
    getItemKey: (index) => lane.tickets[index]?.id ?? 'more',
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1);
  useEffect(() => {
    if (last && last.index >= lane.tickets.length - 3 && lane.hasMore) {
      onLoadMore(lane);
    }
  }, [last, lane, onLoadMore]);
  const title = lane.lane === KANBAN_OPEN_LANE ? t('kanban.open') : (lane.tag?.name ?? '');
  const color = lane.tag?.color;

  return (
    <Paper
      ref={setNodeRef}
      variant="outlined"
      data-testid={`kanban-${key}`}
      sx={{
        flex: '0 0 auto',
        width: { xs: 'calc(100vw - 48px)', sm: 300 },
        maxWidth: 320,
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        scrollSnapAlign: 'start',
        bgcolor: isOver ? 'action.hover' : 'background.default',
        outline: isOver ? 2 : 0,
        outlineColor: 'primary.main',
        outlineStyle: 'solid',
      }}
    >
      <Box
        sx={(theme) => ({
          px: 1.5,
          py: 1,
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          borderTopLeftRadius: 'inherit',
          borderTopRightRadius: 'inherit',
          bgcolor: color ?? 'action.selected',
          color: color ? theme.palette.getContrastText(color) : 'text.primary',
        })}
      >
        <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1, minWidth: 0 }} noWrap title={title}>
          {title}
        </Typography>
        <Typography variant="body2" data-testid={`kanban-count-${key}`}>
          {lane.count}
        </Typography>
      </Box>
      <Box ref={$scroll} sx={{ flex: 1, minHeight: 0, overflowY: 'auto', p: 1 }}>
        {rows === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ p: 1, textAlign: 'center' }}>
            {t('kanban.empty')}
          </Typography>
        )}
        <Box sx={{ position: 'relative', height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const ticket = lane.tickets[item.index];

            return (
              <Box
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                sx={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}
              >
                {ticket ? (
                  <KanbanCard ticket={ticket} laneKey={key} />
                ) : (
                  <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }} aria-label={t('kanban.loading')}>
                    <CircularProgress size={20} />
                  </Box>
                )}
              </Box>
            );
          })}
        </Box>
      </Box>
    </Paper>
  );
};
