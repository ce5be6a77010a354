import { Search } from '@mui/icons-material';
import {
  Badge,
  Box,
  Button,
  CircularProgress,
  InputAdornment,
  List,
  ListItemButton,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { TChat } from '@zelo/shared';
import type { UIEvent } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useAuth } from '../../app/auth/AuthContext';
import { RowActions } from '../../components/kit';
import { formatChatTime, unreadsOf } from './chatCache';
import './i18n';

type TChatListProps = {
  chats: TChat[];
  selectedUuid: string | undefined;
  search: string;
  onSearch: (value: string) => void;
  hasMore: boolean;
  isLoading: boolean;
  onLoadMore: () => void;
  onOpen: (chat: TChat) => void;
  onAdd: () => void;
  onEdit: (chat: TChat) => void;
  onDelete: (chat: TChat) => void;
};

/** near the bottom: the next page (spec 2 §1, 100 px) */
const LOAD_MORE_PX = 100;

/** The caller's chats: title with its unread count, the last message and its time; edit and delete for the owner. */
export const ChatList = (props: TChatListProps) => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const onScroll = (e: UIEvent<HTMLElement>) => {
    const el = e.currentTarget;
    if (props.hasMore && !props.isLoading && el.scrollHeight - el.scrollTop - el.clientHeight < LOAD_MORE_PX) {
      props.onLoadMore();
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      <Stack direction="row" spacing={1} sx={{ p: 1, alignItems: 'center' }}>
        <TextField
          size="small"
          fullWidth
          placeholder={t('chats.search')}
          value={props.search}
          onChange={(e) => props.onSearch(e.target.value)}
          slotProps={{
            htmlInput: { 'data-testid': 'chats-search', 'aria-label': t('chats.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button variant="contained" onClick={props.onAdd} data-testid="chat-add" sx={{ flexShrink: 0 }}>
          {t('chats.newChat')}
        </Button>
      </Stack>
      <List dense sx={{ flex: 1, minHeight: 0, overflowY: 'auto', py: 0 }} onScroll={onScroll} data-testid="chat-list">
        {props.chats.map((chat) => {
          const unreads = unreadsOf(chat, user?.id);
          const isOwner = chat.ownerId === user?.id;

          return (
            <Box
              key={chat.id}
              sx={{ display: 'flex', alignItems: 'center', borderBottom: 1, borderColor: 'divider', pr: 0.5 }}
            >
              <ListItemButton
                selected={chat.uuid === props.selectedUuid}
                onClick={() => props.onOpen(chat)}
                data-testid={`chat-item-${chat.id}`}
                data-unreads={unreads}
                sx={{
                  minWidth: 0,
                  borderLeft: 4,
                  borderColor: chat.uuid === props.selectedUuid ? 'primary.main' : 'transparent',
                }}
              >
                <ListItemText
                  primary={
                    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                      <Typography variant="subtitle2" noWrap sx={{ minWidth: 0 }}>
                        {chat.title}
                      </Typography>
                      <Badge
                        badgeContent={unreads}
                        color="secondary"
                        max={99}
                        aria-label={unreads ? t('chats.unread', { count: unreads }) : undefined}
                        data-testid={`chat-unreads-${chat.id}`}
                      />
                    </Stack>
                  }
                  secondary={
                    chat.lastMessage
                      ? `${formatChatTime(chat.updatedAt)}: ${chat.lastMessage}`
                      : formatChatTime(chat.updatedAt)
                  }
                  slotProps={{ secondary: { noWrap: true } }}
                />
              </ListItemButton>
              {isOwner ? (
                <Box sx={{ display: 'flex', flexShrink: 0 }}>
                  <RowActions
                    onEdit={() => props.onEdit(chat)}
                    onDelete={() => props.onDelete(chat)}
                    editTestId={`chat-edit-${chat.id}`}
                    deleteTestId={`chat-delete-${chat.id}`}
                  />
                </Box>
              ) : null}
            </Box>
          );
        })}
        {props.isLoading ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
            <CircularProgress size={24} />
          </Box>
        ) : null}
        {!props.isLoading && props.chats.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid="chats-empty">
            {t('chats.empty')}
          </Typography>
        ) : null}
      </List>
    </Box>
  );
};
