import BlockIcon from '@mui/icons-material/Block';
import { Box, Paper, Stack, Typography } from '@mui/material';
import type { TMessage } from '@zelo/shared';
import { memo } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { WhatsAppText } from '../../components/WhatsAppText';
import { MessageFailure } from './MessageFailure';
import { MessageMenu } from './MessageMenu';
import { MessageTicks } from './MessageTicks';
import { formatTime, isFailedMessage, lastMessagePreview } from './messageLogic';
import { captionOf, MessageMedia } from './media/MessageMedia';

type MessageBubbleProps = {
  message: TMessage;
  readOnly?: boolean;
  /** a group's conversation: each member's message names who wrote it */
  showSender?: boolean;
  onReply: (message: TMessage) => void;
  onDelete: (message: TMessage) => void;
  onEdit: (message: TMessage) => void;
  onRetry: (message: TMessage) => void;
};

const QuotedBlock = ({ quoted }: { quoted: NonNullable<TMessage['quotedMsg']> }) => {
  const { t } = useTranslation();

  return (
    <Box
      sx={{
        borderLeft: 4,
        borderColor: quoted.fromMe ? 'primary.main' : 'success.main',
        bgcolor: 'action.hover',
        borderRadius: 1,
        px: 1,
        py: 0.5,
        mb: 0.5,
      }}
      data-testid="message-quoted"
    >
      <Typography variant="caption" color={quoted.fromMe ? 'primary' : 'success.main'} fontWeight={600}>
        {quoted.fromMe ? t('tickets.messages.you') : (quoted.contact?.name ?? '')}
      </Typography>
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ whiteSpace: 'pre-wrap', maxHeight: 60, overflow: 'hidden' }}
      >
        {lastMessagePreview(quoted.body, (key) => t(`tickets.previewLabels.${key}`)) || quoted.mediaType}
      </Typography>
    </Box>
  );
};

/** a member's colour in a group, steady per name (as WhatsApp tells members apart) */
const SENDER_COLOURS = ['#1f7aec', '#d6336c', '#2b8a3e', '#e8590c', '#7048e8', '#0c8599', '#c2255c', '#5c940d'];
export const senderColour = (name: string) => {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) | 0;

  return SENDER_COLOURS[Math.abs(hash) % SENDER_COLOURS.length];
};

/** One message: own on the right, others on the left (spec 1 §2). */
const MessageBubbleBase = ({
  message,
  readOnly,
  showSender,
  onReply,
  onDelete,
  onEdit,
  onRetry,
}: MessageBubbleProps) => {
  const { t } = useTranslation();
  const own = message.fromMe;
  const sender = showSender && !own ? message.contact?.name : undefined;
  const caption = message.mediaType || message.mediaUrl ? captionOf(message) : message.body;
  const failed = !message.isDeleted && isFailedMessage(message);

  return (
    <Box
      sx={{ display: 'flex', justifyContent: own ? 'flex-end' : 'flex-start', px: 2, py: 0.25 }}
      data-testid={`message-${message.id}`}
      data-from-me={own}
    >
      <Paper
        elevation={1}
        sx={{
          position: 'relative',
          maxWidth: { xs: '85%', md: '65%' },
          minWidth: 90,
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          bgcolor: (theme) =>
            message.isPrivate
              ? theme.palette.warning.light
              : own
                ? theme.palette.mode === 'dark'
                  ? '#005c4b'
                  : '#dcf8c6'
                : theme.palette.background.paper,
          color: 'text.primary',
          borderRadius: 2,
          borderTopRightRadius: own ? 0 : 8,
          borderTopLeftRadius: own ? 8 : 0,
          '&:hover .message-menu-button': { opacity: 1 },
        }}
      >
        {!readOnly && !message.isDeleted && message.id > 0 ? (
          <MessageMenu message={message} onReply={onReply} onDelete={onDelete} onEdit={onEdit} />
        ) : null}
        {message.isDeleted ? (
          <Stack
            direction="row"
            spacing={0.5}
            alignItems="center"
            sx={{ pr: 2, opacity: 0.8 }}
            data-testid={`message-deleted-${message.id}`}
          >
            <BlockIcon sx={{ fontSize: 16 }} />
            <Typography variant="body2" fontStyle="italic">
              {t('tickets.messages.deleted')}
            </Typography>
          </Stack>
        ) : (
          <>
            {sender ? (
              <Typography
                variant="caption"
                component="div"
                fontWeight={600}
                sx={{ color: senderColour(sender), pr: 2.5 }}
                data-testid={`message-sender-${message.id}`}
              >
                {sender}
              </Typography>
            ) : null}
            {message.quotedMsg ? <QuotedBlock quoted={message.quotedMsg} /> : null}
            <MessageMedia message={message} />
            {caption ? (
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', pr: 2.5 }}>
                <WhatsAppText text={caption} />
              </Typography>
            ) : null}
          </>
        )}
        {failed ? <MessageFailure message={message} onRetry={readOnly ? undefined : () => onRetry(message)} /> : null}
        <Stack direction="row" spacing={0.5} alignItems="center" justifyContent="flex-end" sx={{ mt: 0.25 }}>
          {message.isEdited && !message.isDeleted ? (
            <Typography variant="caption" sx={{ opacity: 0.75 }} data-testid={`message-edited-${message.id}`}>
              {t('tickets.messages.edited')}
            </Typography>
          ) : null}
          <Typography variant="caption" sx={{ opacity: 0.75 }}>
            {formatTime(message.createdAt)}
          </Typography>
          {own ? <MessageTicks id={message.id} ack={message.ack} errorCode={message.errorCode} /> : null}
        </Stack>
      </Paper>
    </Box>
  );
};

export const MessageBubble = memo(MessageBubbleBase);
