import NotificationsIcon from '@mui/icons-material/Notifications';
import {
  Avatar,
  Badge,
  IconButton,
  List,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
  Popover,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { lastMessagePreview } from './messageLogic';
import { useSlaAlerts } from '../sla/useSlaAlerts';
import { useTicketNotifications } from './useTicketNotifications';
import './i18n';
import { Hint } from '../../components/Hint';

/** The top bar's bell: a badge with the number of tickets with unread messages and their list. */
export const NotificationsBell = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tickets = useTicketNotifications();
  useSlaAlerts();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const label = t('layout.notifications');

  return (
    <>
      <Hint title={label}>
        <IconButton
          color="inherit"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={label}
          data-testid="notifications"
        >
          <Badge
            badgeContent={tickets.length}
            color="error"
            max={99}
            data-testid="notification-badge"
            data-count={tickets.length}
          >
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Hint>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 340, maxHeight: 440 } } }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
          {t('tickets.notifications.ticketsUnread')}
        </Typography>
        {tickets.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid="notifications-empty">
            {t('tickets.notifications.empty')}
          </Typography>
        ) : (
          <List dense data-testid="notifications-list">
            {tickets.map((ticket) => (
              <ListItemButton
                key={ticket.id}
                data-testid={`notification-${ticket.id}`}
                onClick={() => {
                  setAnchor(null);
                  navigate(`/tickets/${ticket.uuid}`);
                }}
              >
                <ListItemAvatar>
                  <Avatar src={ticket.contact?.profilePicUrl || undefined} alt={ticket.contact?.name} />
                </ListItemAvatar>
                <ListItemText
                  primary={ticket.contact?.name}
                  secondary={lastMessagePreview(ticket.lastMessage, (key) => t(`tickets.previewLabels.${key}`))}
                  slotProps={{ secondary: { noWrap: true } }}
                />
                <Badge badgeContent={ticket.unreadMessages} color="success" sx={{ mr: 1 }} />
              </ListItemButton>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
};
