import { FULL_HEIGHT } from '../../app/layout/AppLayout';
import { Box, Paper, Tab, Tabs, Typography, useMediaQuery } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { events, type TChat, type TChatBody, type TChatEvent } from '@zelo/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { useDeleteConfirm, useSearch } from '../../components/kit';
import { ChatConversation } from './ChatConversation';
import { ChatDialog } from './ChatDialog';
import { ChatList } from './ChatList';
import { useChatActions, useChats } from './useChats';
import './i18n';

const isMissing = (err: unknown) => [403, 404].includes((err as { status?: number } | null)?.status ?? 0);

/** the chat of `/chats/:uuid`: from the loaded list, else asked for (a chat further down, or a link) */
const useOpenChat = (uuid: string | undefined, listed: TChat[]) => {
  const fromList = uuid ? listed.find((c) => c.uuid === uuid) : undefined;
  const asked = useQuery({
    queryKey: ['chats', 'one', uuid],
    enabled: Boolean(uuid) && !fromList,
    retry: false,
    queryFn: () => api.get<TChat>(`/chats/${uuid}`),
  });

  return { chat: fromList ?? asked.data, missing: !fromList && isMissing(asked.error) };
};

/**
 * Internal chat (spec 2 §2): the list and the open conversation side by side on wide screens, two tabs
 * (chats, messages) on narrow ones. `/chats/:uuid` opens a chat; edit and delete are the owner's.
 */
const ChatsPage = () => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { id: uuid } = useParams();
  const navigate = useNavigate();
  const wide = useMediaQuery((theme) => theme.breakpoints.up('md'), { noSsr: true });
  const [tab, setTab] = useState<'chats' | 'messages'>(uuid ? 'messages' : 'chats');
  useEffect(() => setTab(uuid ? 'messages' : 'chats'), [uuid]);
  const { search, setSearch, searchParam } = useSearch();
  const list = useChats(searchParam);
  const actions = useChatActions();
  const { chat, missing } = useOpenChat(uuid, list.items);
  const [dialog, setDialog] = useState<{ open: boolean; chat: TChat | null }>({ open: false, chat: null });

  // the open chat deleted (or the caller taken out of it): back to the list
  useSocketEvent(user ? events.chat(user.companyId) : '', (data: TChatEvent) => {
    if (data.action === 'delete' && chat && data.id === chat.id) {
      navigate('/chats');
    }
  });

  const remove = useDeleteConfirm<TChat>({
    onDelete: async (target) => {
      await actions.remove(target.id);
      if (target.uuid === uuid) {
        navigate('/chats');
      }
    },
    title: (target) => t('chats.deleteTitle', { title: target.title }),
    message: () => t('chats.deleteMessage'),
    successMessage: t('chats.deleted'),
  });

  const save = async (id: number | null, body: TChatBody) => {
    if (id === null) {
      const created = await actions.create(body);
      navigate(`/chats/${created.uuid}`);
    } else {
      await actions.update(id, body);
    }
  };

  const listPane = (
    <ChatList
      chats={list.items}
      selectedUuid={uuid}
      search={search}
      onSearch={setSearch}
      hasMore={list.hasMore}
      isLoading={list.isLoading}
      onLoadMore={list.loadMore}
      onOpen={(c) => (c.uuid === uuid ? setTab('messages') : navigate(`/chats/${c.uuid}`))}
      onAdd={() => setDialog({ open: true, chat: null })}
      onEdit={(c) => setDialog({ open: true, chat: c })}
      onDelete={remove.ask}
    />
  );
  const conversationPane = chat ? (
    <ChatConversation key={chat.id} chat={chat} />
  ) : (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%', p: 2 }}>
      <Typography color="text.secondary" data-testid={missing ? 'chat-not-found' : 'chat-pick'}>
        {missing ? t('chats.notFound') : t('chats.pick')}
      </Typography>
    </Box>
  );
  const height = FULL_HEIGHT;

  return (
    <>
      {wide ? (
        <Box sx={{ display: 'flex', height, minHeight: 0 }} data-testid="chats-page" data-layout="wide">
          <Paper square variant="outlined" sx={{ width: '33.333%', minWidth: 320, maxWidth: 440, height: '100%' }}>
            {listPane}
          </Paper>
          <Paper square variant="outlined" sx={{ flex: 1, minWidth: 0, height: '100%', borderLeft: 0 }}>
            {conversationPane}
          </Paper>
        </Box>
      ) : (
        <Box
          sx={{ display: 'flex', flexDirection: 'column', height, minHeight: 0 }}
          data-testid="chats-page"
          data-layout="narrow"
        >
          <Tabs
            value={tab}
            onChange={(_e, v: 'chats' | 'messages') => setTab(v)}
            variant="fullWidth"
            sx={{ borderBottom: 1, borderColor: 'divider' }}
          >
            <Tab value="chats" label={t('chats.chatsTab')} data-testid="chats-tab-list" />
            <Tab value="messages" label={t('chats.messagesTab')} data-testid="chats-tab-messages" />
          </Tabs>
          <Box sx={{ flex: 1, minHeight: 0 }}>{tab === 'chats' ? listPane : conversationPane}</Box>
        </Box>
      )}
      <ChatDialog
        open={dialog.open}
        chat={dialog.chat}
        onSave={save}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
      />
      {remove.dialog}
    </>
  );
};

export default ChatsPage;
