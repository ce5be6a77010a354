import { Box, Chip, CircularProgress, Divider, Paper, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TMessage } from '@zelo/shared';
import { type UIEvent, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { MessageBubble } from './MessageBubble';
import { buildConversation, estimateItemSize, formatDateTime, type TConversationItem } from './messageLogic';

/** Older messages load when the list is scrolled within 50 px of its top (spec 1 §9). */
export const OLDER_MESSAGES_THRESHOLD = 50;

type MessagesListProps = {
  messages: TMessage[];
  hasMore: boolean;
  loading: boolean;
  readOnly?: boolean;
  /** a group's conversation: each member's message names who wrote it */
  showSenders?: boolean;
  onLoadOlder: () => void;
  onReply: (message: TMessage) => void;
  onDelete: (message: TMessage) => void;
  onEdit: (message: TMessage) => void;
  onRetry: (message: TMessage) => void;
};

/** within a few pixels of the end: new content keeps the view at the bottom */
const isAtBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight < 24;

const Marker = ({ text, testId }: { text: string; testId: string }) => (
  <Divider sx={{ py: 1.5, px: 2 }} data-testid={testId}>
    <Typography variant="caption" color="text.secondary">
      {text}
    </Typography>
  </Divider>
);

type RowProps = Omit<MessagesListProps, 'messages' | 'hasMore' | 'loading' | 'onLoadOlder'> & {
  item: TConversationItem;
};

const Row = ({ item, readOnly, showSenders, ...handlers }: RowProps) => {
  const { t } = useTranslation();
  switch (item.kind) {
    case 'day':
      return (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }} data-testid="messages-day">
          <Chip size="small" label={item.day} sx={{ bgcolor: 'background.paper' }} />
        </Box>
      );
    case 'ticketEnd':
      return (
        <Marker
          testId="messages-ticket-end"
          text={t('tickets.messages.ticketClosed', { datetime: formatDateTime(item.at) })}
        />
      );
    case 'ticketStart':
      return (
        <Marker
          testId="messages-ticket-start"
          text={t('tickets.messages.ticketStarted', { datetime: formatDateTime(item.at) })}
        />
      );
    default:
      return <MessageBubble message={item.message} readOnly={readOnly} showSender={showSenders} {...handlers} />;
  }
};

/**
 * The conversation: day headers, ticket boundaries, bubbles, newest at the bottom. Virtualized: only the rows in
 * view and a few around them are in the DOM, each measured as it renders (a picture that loads later grows its
 * row). It opens at the bottom and stays there while messages arrive or rows grow; an agent who scrolled up to
 * read stays where they are until they send. Older pages load near the top (spec 1 §9) and arrive above what is
 * on screen without moving it.
 */
export const MessagesList = ({ messages, hasMore, loading, readOnly, onLoadOlder, ...handlers }: MessagesListProps) => {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const items = useMemo(() => buildConversation(messages), [messages]);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => ref.current,
    estimateSize: (index) => estimateItemSize(items[index]),
    getItemKey: (index) => items[index]?.key ?? index,
    overscan: 8,
    paddingStart: 8,
    paddingEnd: 8,
  });
  const totalSize = virtualizer.getTotalSize();
  const previous = useRef<{ firstId: number | null; lastId: number | null; height: number; atBottom: boolean }>({
    firstId: null,
    lastId: null,
    height: 0,
    atBottom: true,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the rows or their measured heights change
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) {
      return;
    }
    const firstId = messages[0]?.id ?? null;
    const lastId = messages[messages.length - 1]?.id ?? null;
    const before = previous.current;
    const newest = messages[messages.length - 1];
    if (lastId !== before.lastId && (before.lastId === null || before.atBottom || newest?.fromMe)) {
      // first load, a new message while the view was at the bottom, or the agent's own send: to the bottom
      el.scrollTop = el.scrollHeight;
    } else if (lastId !== before.lastId) {
      // a message arrived while the agent reads older ones: the view stays where it is
    } else if (firstId !== before.firstId && before.height > 0) {
      // older messages above: keep what was on screen in place (rows measured later correct themselves, as the
      // virtualizer moves the view by the difference of any row above it)
      el.scrollTop += el.scrollHeight - before.height;
    } else if (before.atBottom && el.scrollHeight !== before.height) {
      // a row grew or was measured while the view was at the bottom (a picture loaded, a failure shown): stay
      el.scrollTop = el.scrollHeight;
    }
    previous.current = { firstId, lastId, height: el.scrollHeight, atBottom: isAtBottom(el) };
  }, [messages, totalSize]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    previous.current.atBottom = isAtBottom(el);
    if (el.scrollTop < OLDER_MESSAGES_THRESHOLD && hasMore && !loading) {
      onLoadOlder();
    }
  };

  return (
    <Box
      sx={{
        flex: 1,
        minHeight: 0,
        position: 'relative',
        display: 'flex',
        flexDirection: 'column',
        bgcolor: (theme) => (theme.palette.mode === 'dark' ? '#0b141a' : '#efeae2'),
      }}
    >
      <Box
        ref={ref}
        onScroll={onScroll}
        data-testid="messages-list"
        data-count={messages.length}
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto', overflowAnchor: 'none' }}
      >
        <Box sx={{ position: 'relative', height: totalSize }}>
          {virtualizer.getVirtualItems().map((virtual) => (
            <Box
              key={virtual.key}
              data-index={virtual.index}
              ref={virtualizer.measureElement}
              sx={{ position: 'absolute', top: 0, left: 0, width: '100%' }}
              style={{ transform: `translateY(${virtual.start}px)` }}
            >
              <Row item={items[virtual.index]} readOnly={readOnly} {...handlers} />
            </Box>
          ))}
        </Box>
      </Box>
      {loading ? (
        <Box sx={{ position: 'absolute', top: 8, left: 0, right: 0, display: 'flex', justifyContent: 'center' }}>
          <Paper sx={{ borderRadius: '50%', p: 0.75, display: 'flex' }}>
            <CircularProgress size={20} aria-label={t('tickets.messages.loadingOlder')} />
          </Paper>
        </Box>
      ) : null}
      {!loading && messages.length === 0 ? (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ position: 'absolute', top: 16, left: 0, right: 0, textAlign: 'center', px: 2 }}
        >
          {t('tickets.messages.noMessages')}
        </Typography>
      ) : null}
    </Box>
  );
};
