import AnnouncementIcon from '@mui/icons-material/Campaign';
import {
  Avatar,
  Badge,
  Button,
  IconButton,
  List,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
  Popover,
  Typography,
} from '@mui/material';
import { events, type TAnnouncement, type TAnnouncementEvent } from '@zelo/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useAuth } from '../../app/auth/AuthContext';
import { useInfiniteList, useListCache } from '../../components/kit';
import { formatDate } from '../../utils/date';
import { lazyNamed, OnceOpened } from '../../components/lazyPart';
import {
  announcementImageUrl,
  isUnread,
  markSeen,
  popoverChange,
  priorityBorder,
  readSeen,
  type TSeen,
  unreadCount,
  writeSeen,
} from './announcementLogic';
import './i18n';
import { Hint } from '../../components/Hint';

// the opened announcement's dialog loads when one is first opened
const AnnouncementView = lazyNamed(() => import('./AnnouncementView'), 'AnnouncementView');

const POPOVER_LIST = { queryKey: ['announcements', 'popover'] as const, itemsKey: 'records' };

/**
 * The top bar's announcements: the active ones (newest first) with their priority colour, title, date, text and
 * image, live through `company-announcement`. The badge counts those this user has not seen; opening the popover
 * marks the listed ones seen (kept in this browser per user, see announcementLogic.ts).
 */
export const AnnouncementsPopover = () => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const list = useInfiniteList<TAnnouncement>({
    ...POPOVER_LIST,
    path: '/announcements/for-company',
    enabled: userId !== null,
  });
  useListCache<TAnnouncement, TAnnouncementEvent>(POPOVER_LIST, {
    event: events.announcement(),
    toChange: popoverChange,
  });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [opened, setOpened] = useState<TAnnouncement | null>(null);
  const [seen, setSeen] = useState<TSeen>(() => (userId === null ? {} : readSeen(localStorage, userId)));
  useEffect(() => {
    setSeen(userId === null ? {} : readSeen(localStorage, userId));
  }, [userId]);

  const items = list.items;
  const isOpen = anchor !== null;
  // while the popover is open, what it lists is seen (also what arrives live meanwhile)
  useEffect(() => {
    if (!isOpen || userId === null) {
      return;
    }
    setSeen((current) => {
      const next = markSeen(current, items);
      if (next !== current) {
        writeSeen(localStorage, userId, next);
      }

      return next;
    });
  }, [isOpen, items, userId]);

  const unread = unreadCount(seen, items);
  const label = t('announcements.popover.label');

  return (
    <>
      <Hint title={unread > 0 ? `${label} · ${t('announcements.popover.unread', { count: unread })}` : label}>
        <IconButton
          color="inherit"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={label}
          data-testid="announcements"
        >
          <Badge badgeContent={unread} color="error" max={99} data-testid="announcements-badge" data-count={unread}>
            <AnnouncementIcon />
          </Badge>
        </IconButton>
      </Hint>
      <Popover
        open={isOpen}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 360, maxWidth: 'calc(100vw - 16px)', maxHeight: 480 } } }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
          {label}
        </Typography>
        {items.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid="announcements-empty">
            {t('announcements.popover.empty')}
          </Typography>
        ) : (
          <List dense data-testid="announcements-list" sx={{ px: 1 }}>
            {items.map((a) => {
              const url = announcementImageUrl(a);

              return (
                <ListItemButton
                  key={a.id}
                  data-testid={`announcement-item-${a.id}`}
                  data-unread={isUnread(seen, a) ? 'true' : 'false'}
                  onClick={() => {
                    setAnchor(null);
                    setOpened(a);
                  }}
                  sx={{
                    alignItems: 'flex-start',
                    mb: 0.5,
                    borderRadius: 1,
                    border: 1,
                    borderColor: 'divider',
                    borderLeft: 4,
                    borderLeftColor: priorityBorder(a.priority),
                  }}
                >
                  {url && (
                    <ListItemAvatar sx={{ mt: 0.5 }}>
                      <Avatar variant="rounded" src={url} alt={a.mediaName ?? ''} />
                    </ListItemAvatar>
                  )}
                  <ListItemText
                    primary={a.title}
                    secondary={
                      <>
                        <Typography component="span" variant="caption" sx={{ display: 'block' }}>
                          {formatDate(a.createdAt)}
                        </Typography>
                        <Typography
                          component="span"
                          variant="body2"
                          sx={{
                            display: '-webkit-box',
                            WebkitLineClamp: 3,
                            WebkitBoxOrient: 'vertical',
                            overflow: 'hidden',
                            whiteSpace: 'pre-wrap',
                            overflowWrap: 'anywhere',
                          }}
                        >
                          {a.text}
                        </Typography>
                      </>
                    }
                    slotProps={{ primary: { sx: { fontWeight: 600, overflowWrap: 'anywhere' } } }}
                  />
                </ListItemButton>
              );
            })}
            {list.hasMore && (
              <Button fullWidth size="small" onClick={list.loadMore} disabled={list.isLoading}>
                {t('announcements.popover.loadMore')}
              </Button>
            )}
          </List>
        )}
      </Popover>
      <OnceOpened open={opened !== null}>
        <AnnouncementView announcement={opened} onClose={() => setOpened(null)} />
      </OnceOpened>
    </>
  );
};
