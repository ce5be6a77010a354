import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { IconButton, Menu, MenuItem } from '@mui/material';
import type { TMessage } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { canDeleteMessage, canEditMessage } from './messageLogic';
import { useViewer } from './useViewer';

type MessageMenuProps = {
  message: TMessage;
  onReply: (message: TMessage) => void;
  onDelete: (message: TMessage) => void;
  onEdit: (message: TMessage) => void;
};

/** Per-message menu: reply (any message), edit and delete (only the author's own messages, spec 1 §6). */
export const MessageMenu = ({ message, onReply, onDelete, onEdit }: MessageMenuProps) => {
  const { t } = useTranslation();
  const viewer = useViewer();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const pick = (fn: (m: TMessage) => void) => () => {
    setAnchor(null);
    fn(message);
  };

  return (
    <>
      <IconButton
        size="small"
        className="message-menu-button"
        aria-label={t('tickets.messages.menu')}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid={`message-menu-${message.id}`}
        sx={{ position: 'absolute', top: 0, right: 0, p: 0.25, opacity: 0, transition: 'opacity .15s' }}
      >
        <ExpandMoreIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem onClick={pick(onReply)} data-testid={`message-reply-${message.id}`}>
          {t('tickets.messages.reply')}
        </MenuItem>
        {canEditMessage(message, viewer.id) ? (
          <MenuItem onClick={pick(onEdit)} data-testid={`message-edit-${message.id}`}>
            {t('tickets.messages.edit')}
          </MenuItem>
        ) : null}
        {canDeleteMessage(message, viewer.id) ? (
          <MenuItem onClick={pick(onDelete)} data-testid={`message-delete-${message.id}`}>
            {t('tickets.messages.delete')}
          </MenuItem>
        ) : null}
      </Menu>
    </>
  );
};
