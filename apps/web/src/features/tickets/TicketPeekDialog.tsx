import CloseIcon from '@mui/icons-material/Close';
import { Box, Dialog, DialogTitle, IconButton } from '@mui/material';
import type { TTicket } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { MessagesList } from './MessagesList';
import { flattenMessages } from './messagesCache';
import { useMessagesQuery } from './useMessages';

const noop = () => undefined;

/** Admin peek: the conversation read-only, in a dialog (not a route). */
export const TicketPeekDialog = ({ ticket, onClose }: { ticket: TTicket | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const query = useMessagesQuery(ticket?.id ?? 0, ticket !== null);

  return (
    <Dialog open={ticket !== null} onClose={onClose} maxWidth="md" fullWidth data-testid="ticket-peek-dialog">
      <DialogTitle sx={{ pr: 6 }}>
        {t('tickets.peekTitle', { name: ticket?.contact?.name ?? '' })}
        <IconButton onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }} aria-label={t('common.close')}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <Box sx={{ height: '70vh', display: 'flex', flexDirection: 'column' }}>
        <MessagesList
          messages={flattenMessages(query.data)}
          hasMore={Boolean(query.hasNextPage)}
          loading={query.isLoading || query.isFetchingNextPage}
          readOnly
          showSenders={Boolean(ticket?.isGroup)}
          onLoadOlder={() => void query.fetchNextPage()}
          onReply={noop}
          onDelete={noop}
          onEdit={noop}
          onRetry={noop}
        />
      </Box>
    </Dialog>
  );
};
