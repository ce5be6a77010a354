import ChatIcon from '@mui/icons-material/Chat';
import { Badge, List, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { useAuth } from '../../app/auth/AuthContext';
import { EmptyPopover } from '../../app/layout/EmptyPopover';
import { formatChatTime, unreadsOf } from './chatCache';
import { useChats } from './useChats';
import './i18n';

/**
 * The top bar's chats button: the caller's unread total over all its chats (not only the listed ones), the
 * latest chats; a click opens `/chats/:uuid`.
 */
export const ChatsPopover = () => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const { items, unreads } = useChats();

  return (
    <EmptyPopover
      icon={<ChatIcon />}
      label={t('layout.chats')}
      emptyText={t('layout.noChats')}
      testId="chats"
      count={unreads}
    >
      {(close) =>
        items.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid="chats-empty">
            {t('layout.noChats')}
          </Typography>
        ) : (
          <List dense data-testid="chats-popover-list">
            {items.slice(0, 20).map((chat) => {
              const count = unreadsOf(chat, user?.id);

              return (
                <ListItemButton
                  key={chat.id}
                  onClick={() => {
                    close();
                    navigate(`/chats/${chat.uuid}`);
                  }}
                  data-testid={`chats-popover-${chat.id}`}
                >
                  <ListItemText
                    primary={chat.title}
                    secondary={`${formatChatTime(chat.updatedAt)}${chat.lastMessage ? ` · ${chat.lastMessage}` : ''}`}
                    slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                  />
                  <Badge badgeContent={count} color="secondary" max={99} sx={{ mr: 1 }} />
                </ListItemButton>
              );
            })}
          </List>
        )
      }
    </EmptyPopover>
  );
};
