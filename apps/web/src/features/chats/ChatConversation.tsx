import { Send } from '@mui/icons-material';
import { Box, CircularProgress, IconButton, Paper, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TChat, type TChatNewMessage, type TChatRoomEvent } from '@zelo/shared';
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { toastError } from '../../components/toast';
import {
  appendMessage,
  conversationOf,
  formatChatTime,
  type TMessageData,
  type TMessagePage,
  unreadsOf,
} from './chatCache';
import { useChatActions } from './useChats';
import './i18n';

/** older messages load when the list is scrolled within 600 px of its top (spec 2 §9) */
export const LOAD_OLDER_PX = 600;

export const messagesKey = (chatId: number) => ['chats', 'messages', chatId] as const;

type TChatConversationProps = { chat: TChat };

/**
 * One chat's messages, oldest at the top, with the send box. Opening it (and each message heard while it is
 * open) marks the chat read for the caller. Older pages load near the top without moving what is on screen.
 */
export const ChatConversation = ({ chat }: TChatConversationProps) => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const actions = useChatActions();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  /** distance from the bottom kept while an older page is put above */
  const keepFromBottom = useRef<number | null>(null);
  const stickToBottom = useRef(true);

  const query = useInfiniteQuery({
    queryKey: messagesKey(chat.id),
    queryFn: ({ pageParam }) =>
      api.get<TMessagePage>(`/chats/${chat.id}/messages`, { params: { pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const messages = conversationOf(query.data as TMessageData | undefined);

  const myUnreads = unreadsOf(chat, user?.id);
  const markReadRef = useRef(actions.markRead);
  markReadRef.current = actions.markRead;
  useEffect(() => {
    if (user && myUnreads > 0) {
      markReadRef.current(chat, user.id).catch(() => undefined);
    }
  }, [chat, myUnreads, user]);

  const add = (message: TChatNewMessage) => {
    const { chat: _chat, ...plain } = message;
    queryClient.setQueryData<TMessageData>(messagesKey(chat.id), (old) => appendMessage(old, plain));
  };

  useSocketEvent(user ? events.chatRoom(user.companyId, chat.id) : '', (data: TChatRoomEvent) => {
    if (data.action === 'new-message') {
      const el = scroller.current;
      stickToBottom.current =
        data.newMessage.senderId === user?.id || !el || el.scrollHeight - el.scrollTop - el.clientHeight < 120;
      add(data.newMessage);
    }
  });

  // after a render: keep the place when older messages came in above, or follow the newest
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) {
      return;
    }
    if (keepFromBottom.current !== null) {
      el.scrollTop = el.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else if (stickToBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  });

  const onScroll = () => {
    const el = scroller.current;
    if (!el) {
      return;
    }
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 120;
    if (el.scrollTop < LOAD_OLDER_PX && query.hasNextPage && !query.isFetchingNextPage) {
      keepFromBottom.current = el.scrollHeight - el.scrollTop;
      void query.fetchNextPage();
    }
  };

  const send = async () => {
    const message = text.trim();
    if (!message || sending) {
      return;
    }
    setSending(true);
    try {
      const sent = await api.post<TChatNewMessage>(`/chats/${chat.id}/messages`, { message });
      stickToBottom.current = true;
      add(sent);
      setText('');
    } catch (err) {
      toastError(err);
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <Box
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}
      data-testid="chat-conversation"
    >
      <Box sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="subtitle1" noWrap data-testid="chat-conversation-title">
          {chat.title}
        </Typography>
        <Typography variant="caption" color="text.secondary" noWrap component="div">
          {chat.users.map((u) => u.user.name).join(', ')}
        </Typography>
      </Box>
      <Box
        ref={scroller}
        onScroll={onScroll}
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto', p: { xs: 1, sm: 2 }, bgcolor: 'action.hover' }}
        data-testid="chat-messages"
      >
        {query.isFetchingNextPage || query.isLoading ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
            <CircularProgress size={20} />
          </Box>
        ) : null}
        {!query.isLoading && messages.length === 0 ? (
          <Typography color="text.secondary" sx={{ textAlign: 'center', p: 2 }}>
            {t('chats.noMessages')}
          </Typography>
        ) : null}
        <Stack spacing={1}>
          {messages.map((m) => {
            const mine = m.senderId === user?.id;

            return (
              <Paper
                key={m.id}
                elevation={0}
                data-testid="chat-message"
                data-mine={mine}
                sx={{
                  alignSelf: mine ? 'flex-end' : 'flex-start',
                  maxWidth: { xs: '85%', sm: '70%' },
                  px: 1.5,
                  py: 1,
                  borderRadius: 2,
                  bgcolor: mine ? 'primary.main' : 'background.paper',
                  color: mine ? 'primary.contrastText' : 'text.primary',
                  border: mine ? 0 : 1,
                  borderColor: 'divider',
                }}
              >
                <Typography variant="caption" component="div" sx={{ fontWeight: 600, opacity: 0.9 }}>
                  {mine ? t('chats.you') : (m.sender?.name ?? '')}
                </Typography>
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {m.message}
                </Typography>
                <Typography variant="caption" component="div" sx={{ textAlign: 'right', opacity: 0.75 }}>
                  {formatChatTime(m.createdAt)}
                </Typography>
              </Paper>
            );
          })}
        </Stack>
      </Box>
      <Stack direction="row" spacing={1} sx={{ p: 1, borderTop: 1, borderColor: 'divider', alignItems: 'flex-end' }}>
        <TextField
          fullWidth
          multiline
          maxRows={4}
          size="small"
          placeholder={t('chats.typeMessage')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          slotProps={{
            htmlInput: { 'data-testid': 'chat-input', 'aria-label': t('chats.typeMessage'), maxLength: 4000 },
          }}
        />
        <Tooltip title={t('chats.send')}>
          <span>
            <IconButton
              color="primary"
              onClick={() => void send()}
              disabled={sending || !text.trim()}
              aria-label={t('chats.send')}
              data-testid="chat-send"
            >
              <Send />
            </IconButton>
          </span>
        </Tooltip>
      </Stack>
    </Box>
  );
};
