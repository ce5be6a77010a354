import { Box, Chip, CircularProgress, Divider, Typography } from '@mui/material';
import type { TMessage } from '@zelo/shared';
import { type UIEvent, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageBubble } from './MessageBubble';
import { buildConversation, formatDateTime } from './messageLogic';

/** Older messages load when the list is scrolled within 50 px of its top (spec 1 §9). */
export const OLDER_MESSAGES_THRESHOLD = 50;

type MessagesListProps = {
  messages: TMessage[];
  hasMore: boolean;
  loading: boolean;
  readOnly?: boolean;
  onLoadOlder: () => void;
  onReply: (message: TMessage) => void;
  onDelete: (message: TMessage) => void;
  onEdit: (message: TMessage) => void;
  onRetry: (message: TMessage) => void;
};

/** within a few pixels of the end: new content keeps the view at the bottom */
const isAtBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight < 24;

const Marker = ({ text, testId }: { text: string; testId: string }) => (
  <Divider sx={{ my: 1.5, px: 2 }} data-testid={testId}>
    <Typography variant="caption" color="text.secondary">
      {text}
    </Typography>
  </Divider>
);

/** The conversation: day headers, ticket boundaries, bubbles; stays at the bottom when messages arrive. */
export const MessagesList = ({ messages, hasMore, loading, readOnly, onLoadOlder, ...handlers }: MessagesListProps) => {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const items = useMemo(() => buildConversation(messages), [messages]);
  const previous = useRef<{ firstId: number | null; lastId: number | null; height: number; atBottom: boolean }>({
    firstId: null,
    lastId: null,
    height: 0,
    atBottom: true,
  });

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) {
      return;
    }
    const firstId = messages[0]?.id ?? null;
    const lastId = messages[messages.length - 1]?.id ?? null;
    const before = previous.current;
    if (lastId !== before.lastId) {
      // first load or a new message at the end: to the bottom
      el.scrollTop = el.scrollHeight;
    } else if (firstId !== before.firstId && before.height > 0) {
      // older messages above: keep what was on screen in place
      el.scrollTop += el.scrollHeight - before.height;
    } else if (before.atBottom && el.scrollHeight !== before.height) {
      // a message grew while the view was at the bottom (its failure shown, an edit): stay there
      el.scrollTop = el.scrollHeight;
    }
    previous.current = { firstId, lastId, height: el.scrollHeight, atBottom: isAtBottom(el) };
  }, [messages]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    previous.current.atBottom = isAtBottom(el);
    if (el.scrollTop < OLDER_MESSAGES_THRESHOLD && hasMore && !loading) {
      onLoadOlder();
    }
  };

  return (
    <Box
      ref={ref}
      onScroll={onScroll}
      data-testid="messages-list"
      sx={{
        flex: 1,
        minHeight: 0,
        overflowY: 'auto',
        py: 1,
        bgcolor: (theme) => (theme.palette.mode === 'dark' ? '#0b141a' : '#efeae2'),
      }}
    >
      {loading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
          <CircularProgress size={20} aria-label={t('tickets.messages.loadingOlder')} />
        </Box>
      ) : null}
      {!loading && messages.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', p: 2 }}>
          {t('tickets.messages.noMessages')}
        </Typography>
      ) : null}
      {items.map((item) => {
        switch (item.kind) {
          case 'day':
            return (
              <Box key={item.key} sx={{ display: 'flex', justifyContent: 'center', my: 1 }} data-testid="messages-day">
                <Chip size="small" label={item.day} sx={{ bgcolor: 'background.paper' }} />
              </Box>
            );
          case 'ticketEnd':
            return (
              <Marker
                key={item.key}
                testId="messages-ticket-end"
                text={t('tickets.messages.ticketClosed', { datetime: formatDateTime(item.at) })}
              />
            );
          case 'ticketStart':
            return (
              <Marker
                key={item.key}
                testId="messages-ticket-start"
                text={t('tickets.messages.ticketStarted', { datetime: formatDateTime(item.at) })}
              />
            );
          default:
            return <MessageBubble key={item.key} message={item.message} readOnly={readOnly} {...handlers} />;
        }
      })}
    </Box>
  );
};
