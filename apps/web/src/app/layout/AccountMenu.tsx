import AccountCircle from '@mui/icons-material/AccountCircle';
import { Badge, Divider, IconButton, ListItemText, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { AwayMenuItem } from '../../features/assignment/AwayMenuItem';
import { PresenceDot } from '../../features/assignment/PresenceDot';
import { useAuth } from '../auth/AuthContext';
import { lazyNamed, OnceOpened } from '../../components/lazyPart';
import { Hint } from '../../components/Hint';

const ProfileDialog = lazyNamed(() => import('./ProfileDialog'), 'ProfileDialog');

export const AccountMenu = () => {
  const { t } = useTranslation();
  const { logout, user } = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);

  return (
    <>
      <Hint title={t('layout.account')}>
        <IconButton
          color="inherit"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={t('layout.account')}
          data-testid="account-menu"
        >
          {/* the user's own presence: available, or paused ("away") for automatic assignment */}
          <Badge
            overlap="circular"
            anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
            badgeContent={
              user ? (
                <PresenceDot user={{ online: true, away: user.away }} tooltip={false} testId="own-presence" />
              ) : null
            }
          >
            <AccountCircle />
          </Badge>
        </IconButton>
      </Hint>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setProfileOpen(true);
          }}
          data-testid="profile"
        >
          <ListItemText>{t('layout.profile')}</ListItemText>
        </MenuItem>
        <AwayMenuItem />
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void logout();
          }}
          data-testid="logout"
        >
          <ListItemText>{t('layout.logout')}</ListItemText>
        </MenuItem>
      </Menu>
      <OnceOpened open={profileOpen}>
        <ProfileDialog open={profileOpen} onClose={() => setProfileOpen(false)} />
      </OnceOpened>
    </>
  );
};
