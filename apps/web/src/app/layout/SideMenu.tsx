import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import {
  Badge,
  Box,
  Collapse,
  Divider,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Typography,
} from '@mui/material';
import { APP_VERSION, type TSessionUser } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { Link as RouterLink, useLocation } from 'react-router';
import { isPayOnly, reachableWhenPayOnly } from '../../features/subscription/standing';
import { useAuth } from '../auth/AuthContext';
import { checkAccess } from '../routes/access';
import { ADMIN_MENU, MAIN_MENU, type MenuEntry, type MenuLink } from './menuItems';
import { useMenuBadges } from './useMenuBadges';
import { Hint } from '../../components/Hint';

type SideMenuProps = {
  /** false: the narrow (icons only) drawer */
  expanded: boolean;
  onNavigate?: () => void;
};

/** The entries the user may see; a group without a visible child disappears. */
const visibleEntries = (user: TSessionUser, entries: MenuEntry[]): MenuEntry[] =>
  entries.flatMap<MenuEntry>((entry) => {
    if (entry.kind === 'link') {
      return checkAccess(user, entry.access) ? [] : [entry];
    }
    const children = entry.children.filter((child) => !checkAccess(user, child.access));

    return children.length ? [{ ...entry, children }] : [];
  });

const payOnlyEntries = (entries: MenuEntry[]): MenuEntry[] =>
  entries.filter((entry) => entry.kind === 'link' && reachableWhenPayOnly(entry.to));

const isActive = (pathname: string, to: string) =>
  to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);

/** an item's icon with its badge (the badges read their lists: only items that carry one ask) */
const BadgedIcon = ({ item }: { item: MenuLink }) => {
  const badges = useMenuBadges();
  const alert = item.badge ? badges[item.badge] : false;

  return item.badge === 'connections' ? (
    <Badge badgeContent={alert ? '!' : 0} color="error">
      {item.icon}
    </Badge>
  ) : (
    <Badge variant="dot" invisible={!alert} color="error">
      {item.icon}
    </Badge>
  );
};

const MenuItemLink = ({ item, expanded, nested, onNavigate }: { item: MenuLink; nested?: boolean } & SideMenuProps) => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const label = t(item.labelKey);
  const icon = item.badge ? <BadgedIcon item={item} /> : item.icon;

  return (
    <Hint title={expanded ? '' : label} placement="right">
      <ListItemButton
        component={RouterLink}
        to={item.to}
        selected={isActive(pathname, item.to)}
        onClick={onNavigate}
        data-testid={`menu-${item.name}`}
        sx={{ pl: nested && expanded ? 4 : 2, minHeight: 44 }}
      >
        <ListItemIcon sx={{ minWidth: 40 }}>{icon}</ListItemIcon>
        {expanded ? <ListItemText primary={label} slotProps={{ primary: { noWrap: true } }} /> : null}
      </ListItemButton>
    </Hint>
  );
};

const MenuEntries = ({ entries, ...props }: { entries: MenuEntry[] } & SideMenuProps) => {
  const { t } = useTranslation();
  const [closed, setClosed] = useState<Record<string, boolean>>({});

  return entries.map((entry) => {
    if (entry.kind === 'link') {
      return <MenuItemLink key={entry.name} item={entry} {...props} />;
    }
    const open = !closed[entry.name];

    return (
      <Box key={entry.name}>
        <ListItemButton
          onClick={() => setClosed((c) => ({ ...c, [entry.name]: open }))}
          data-testid={`menu-${entry.name}`}
          sx={{ minHeight: 44 }}
        >
          <Hint title={props.expanded ? '' : t(entry.labelKey)} placement="right">
            <ListItemIcon sx={{ minWidth: 40 }}>{entry.icon}</ListItemIcon>
          </Hint>
          {props.expanded ? <ListItemText primary={t(entry.labelKey)} /> : null}
          {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
        </ListItemButton>
        <Collapse in={open} timeout="auto" unmountOnExit>
          <List disablePadding dense>
            {entry.children.map((child) => (
              <MenuItemLink key={child.name} item={child} nested {...props} />
            ))}
          </List>
        </Collapse>
      </Box>
    );
  });
};

export const SideMenu = (props: SideMenuProps) => {
  const { t } = useTranslation();
  const { user } = useAuth();
  if (!user) {
    return null;
  }
  // a pay-only session (past the due date) sees only the subscription and invoices items
  const payOnly = isPayOnly(user);
  const main = payOnly ? payOnlyEntries(MAIN_MENU) : visibleEntries(user, MAIN_MENU);
  const admin = payOnly ? payOnlyEntries(ADMIN_MENU) : visibleEntries(user, ADMIN_MENU);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, overflowX: 'hidden' }} data-testid="side-menu">
      <List component="nav" dense sx={{ flex: 1 }}>
        <MenuEntries entries={main} {...props} />
        {admin.length ? (
          <>
            <Divider sx={{ my: 1 }} />
            {props.expanded ? (
              <ListSubheader
                disableSticky
                sx={{ lineHeight: '32px', bgcolor: 'transparent' }}
                data-testid="menu-administration"
              >
                {t('menu.administration')}
              </ListSubheader>
            ) : null}
            <MenuEntries entries={admin} {...props} />
          </>
        ) : null}
      </List>
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{ textAlign: 'center', py: 1 }}
        data-testid="app-version"
      >
        {t('menu.version', { version: APP_VERSION })}
      </Typography>
    </Box>
  );
};
