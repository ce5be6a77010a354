import { Box, CircularProgress } from '@mui/material';
import { events, type TMessage, type TTicket } from '@zelo/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { toastError } from '../../components/toast';
import { Composer } from './Composer';
import { ContactDrawer } from './ContactDrawer';
import { ConversationHeader } from './ConversationHeader';
import { EditMessageDialog } from './EditMessageDialog';
import { MessagesList } from './MessagesList';
import { TicketTags } from './TicketTags';
import { TransferDialog } from './TransferDialog';
import { flattenMessages } from './messagesCache';
import { dropNotification } from './notificationRules';
import { NOTIFICATIONS_KEY } from './queryKeys';
import { isTicketGone } from './ticketListReducer';
import { ticketsApi } from './ticketsApi';
import type { TTicketEvent } from './ticketTypes';
import { useChannelWindow } from './useChannelWindow';
import { useMessageEvents, useMessagesQuery, useStoreMessage } from './useMessages';
import { useOpenTicket } from './useOpenTicket';
import { useSendMessages } from './useSendMessages';
import { setCurrentTicketId } from './useTicketNotifications';

type ConversationProps = { uuid: string; onBack?: () => void };

/** /tickets/:uuid — the conversation of one ticket. */
export const Conversation = ({ uuid, onBack }: ConversationProps) => {
  const { ticket, isLoading } = useOpenTicket(uuid);
  if (!ticket) {
    return isLoading ? (
      <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', height: '100%' }}>
        <CircularProgress />
      </Box>
    ) : null;
  }

  return <TicketConversation key={ticket.id} ticket={ticket} onBack={onBack} />;
};

const TicketConversation = ({ ticket, onBack }: { ticket: TTicket; onBack?: () => void }) => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [transferOpen, setTransferOpen] = useState(false);
  const [replyTo, setReplyTo] = useState<TMessage | null>(null);
  const [deleting, setDeleting] = useState<TMessage | null>(null);
  const [editing, setEditing] = useState<TMessage | null>(null);
  const storeMessage = useStoreMessage();

  const queryClient = useQueryClient();
  const messagesQuery = useMessagesQuery(ticket.id);
  const { window: channelWindow, refresh: refreshWindow } = useChannelWindow(ticket.id, ticket.status === 'open');
  // a message arriving while the ticket is on screen is read at once (the server then sends updateUnread);
  // the customer writing (re)opens the customer-service window
  const onCreated = useCallback(
    (message: TMessage) => {
      if (message.fromMe) {
        return;
      }
      refreshWindow();
      if (document.visibilityState === 'visible') {
        void ticketsApi.markRead(ticket.id).catch(() => undefined);
      }
    },
    [ticket.id, refreshWindow],
  );
  useMessageEvents(ticket.id, ticket.contactId, onCreated);
  const onRefused = useCallback(
    (errorCode: string) => {
      if (errorCode === 'ERR_WAPP_WINDOW_CLOSED') {
        refreshWindow();
      }
    },
    [refreshWindow],
  );
  const { localMessages, sendText, sendFiles, retry } = useSendMessages(ticket, onRefused);
  const messages = useMemo(
    () => [...flattenMessages(messagesQuery.data), ...localMessages],
    [messagesQuery.data, localMessages],
  );

  useEffect(() => {
    setCurrentTicketId(ticket.id);
    queryClient.setQueryData<TTicket[]>(NOTIFICATIONS_KEY, (old) => (old ? dropNotification(old, ticket.id) : old));

    return () => setCurrentTicketId(null);
  }, [ticket.id, queryClient]);

  // the open ticket was deleted elsewhere: back to the list (a ticket that only moved between lists stays open)
  useSocketEvent(user ? events.ticket(user.companyId) : '', (data: TTicketEvent) => {
    if (isTicketGone(data, ticket.id)) {
      navigate('/tickets');
    }
  });

  const deleteMessage = async (message: TMessage) => {
    try {
      await ticketsApi.deleteMessage(message.id);
      storeMessage({ ...message, isDeleted: true });
    } catch (err) {
      toastError(err);
    }
  };

  const editMessage = async (message: TMessage, body: string) => {
    try {
      const saved = await ticketsApi.editMessage(message.id, body);
      storeMessage(saved && typeof saved === 'object' && 'id' in saved ? saved : { ...message, body, isEdited: true });
    } catch (err) {
      toastError(err);
      throw err;
    }
  };

  return (
    <Box
      sx={{ display: 'flex', height: '100%', minHeight: 0, position: 'relative', overflow: 'hidden' }}
      data-testid="conversation"
      data-ticket-id={ticket.id}
      data-status={ticket.status}
    >
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <ConversationHeader
          ticket={ticket}
          onBack={onBack}
          onContact={() => setDrawerOpen((v) => !v)}
          onTransfer={() => setTransferOpen(true)}
        />
        <TicketTags ticket={ticket} />
        <MessagesList
          messages={messages}
          showSenders={ticket.isGroup}
          hasMore={Boolean(messagesQuery.hasNextPage)}
          loading={messagesQuery.isLoading || messagesQuery.isFetchingNextPage}
          onLoadOlder={() => void messagesQuery.fetchNextPage()}
          onReply={setReplyTo}
          onDelete={setDeleting}
          onEdit={setEditing}
          onRetry={retry}
        />
        <Composer
          ticket={ticket}
          replyTo={replyTo}
          onCancelReply={() => setReplyTo(null)}
          sendText={sendText}
          sendFiles={sendFiles}
          channelWindow={channelWindow}
        />
      </Box>
      {drawerOpen ? <ContactDrawer open ticket={ticket} onClose={() => setDrawerOpen(false)} /> : null}
      <TransferDialog open={transferOpen} ticket={ticket} onClose={() => setTransferOpen(false)} />
      <EditMessageDialog message={editing} onClose={() => setEditing(null)} onSave={editMessage} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('tickets.messages.deleteTitle')}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void deleteMessage(deleting)}
      >
        {t('tickets.messages.deleteMessage')}
      </ConfirmDialog>
    </Box>
  );
};
