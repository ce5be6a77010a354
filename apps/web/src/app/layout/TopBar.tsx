import MenuIcon from '@mui/icons-material/Menu';
import RefreshIcon from '@mui/icons-material/Refresh';
import { AppBar, Box, IconButton, Toolbar, Typography } from '@mui/material';
import type { TLanguage } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { LanguagePicker } from '../../components/LanguagePicker';
import { ThemeToggle } from '../../components/ThemeToggle';
import { toastError } from '../../components/toast';
import { AnnouncementsPopover } from '../../features/announcements/AnnouncementsPopover';
import { ChatsPopover } from '../../features/chats/ChatsPopover';
import { NotificationsBell } from '../../features/tickets/NotificationsBell';
import { isPayOnly } from '../../features/subscription/standing';
import { daysUntil, formatDate } from '../../utils/date';
import { useAuth } from '../auth/AuthContext';
import { planAllows } from '../routes/access';
import { AccountMenu } from './AccountMenu';
import { VolumeControl } from './VolumeControl';
import { Hint } from '../../components/Hint';

/** the greeting's due-date note: active until the day, or expired since it (a past day is never "active") */
export const dueDateKey = (dueDate: string | null | undefined, now = new Date()) => {
  const days = daysUntil(dueDate, now);

  return days !== null && days < 0 ? 'layout.expiredOn' : 'layout.dueDate';
};

const Greeting = () => {
  const { t } = useTranslation();
  const { user, isAdmin } = useAuth();
  if (!user) {
    return null;
  }
  const dueDate = formatDate(user.company.dueDate);

  return (
    <Typography variant="subtitle1" noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="greeting">
      {t('layout.greeting', { name: user.name, company: user.company.name })}
      {isAdmin && dueDate ? (
        <Box component="span" sx={{ ml: 1, opacity: 0.85 }} data-testid="greeting-due-date">
          {t(dueDateKey(user.company.dueDate), { date: dueDate })}
        </Box>
      ) : null}
    </Typography>
  );
};

type TopBarProps = { onToggleMenu: () => void };

export const TopBar = ({ onToggleMenu }: TopBarProps) => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const payOnly = isPayOnly(user);
  const saveLanguage = (lang: TLanguage) => {
    api.post(`/users/set-language/${lang}`).catch(toastError);
  };

  return (
    <AppBar position="fixed" color="primary" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 0.5 }}>
        <IconButton
          color="inherit"
          edge="start"
          onClick={onToggleMenu}
          aria-label={t('layout.toggleMenu')}
          data-testid="menu-toggle"
          sx={{ mr: 1 }}
        >
          <MenuIcon />
        </IconButton>
        <Greeting />
        <Box sx={{ display: 'flex', alignItems: 'center', flexShrink: 0 }}>
          <LanguagePicker onChanged={saveLanguage} />
          <ThemeToggle />
          {/* on a phone the greeting needs the room: volume and reload stay for wider screens */}
          <Box sx={{ display: { xs: 'none', sm: 'flex' }, alignItems: 'center' }}>
            <VolumeControl />
            <Hint title={t('layout.reload')}>
              <IconButton
                color="inherit"
                onClick={() => window.location.reload()}
                aria-label={t('layout.reload')}
                data-testid="reload"
              >
                <RefreshIcon />
              </IconButton>
            </Hint>
          </Box>
          {/* a pay-only session reaches none of what these read */}
          {payOnly ? null : <NotificationsBell />}
          {payOnly ? null : <AnnouncementsPopover />}
          {user && !payOnly && planAllows(user, 'useInternalChat') ? <ChatsPopover /> : null}
          <AccountMenu />
        </Box>
      </Toolbar>
    </AppBar>
  );
};
