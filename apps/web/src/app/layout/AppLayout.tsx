import { Box, CircularProgress, Drawer, Toolbar, useMediaQuery } from '@mui/material';
import { Suspense, useLayoutEffect, useRef, useState } from 'react';
import { Outlet } from 'react-router';
import { ExpiryNotice, PayOnlyGate, TrialBanner } from '../../features/subscription/SubscriptionNotices';
import { useAuth } from '../auth/AuthContext';
import { SideMenu } from './SideMenu';
import { TopBar } from './TopBar';

export const DRAWER_WIDTH = 240;

/**
 * The height of what sits above a screen (the top bar and any notice: the trial banner, the expiry notice), kept
 * in the CSS variable `--app-chrome` on the layout: a full-height screen (tickets, kanban, chats, the flow editor,
 * the simulator) is `calc(100dvh - var(--app-chrome))` tall and never runs past the window while a notice shows.
 */
export const FULL_HEIGHT = `calc(100dvh - var(--app-chrome, 64px))`;

const useChromeHeight = () => {
  const root = useRef<HTMLDivElement>(null);
  const chrome = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const top = chrome.current;
    if (!top || typeof ResizeObserver === 'undefined') {
      return;
    }
    const apply = () =>
      root.current?.style.setProperty('--app-chrome', `${Math.ceil(top.getBoundingClientRect().height)}px`);
    apply();
    const observer = new ResizeObserver(apply);
    observer.observe(top);

    return () => observer.disconnect();
  }, []);

  return { root, chrome };
};
const MINI_WIDTH = 60;

/** Open by default when the page is wider than 1200 px (spec 1 §9), unless the company turned it off. */
const initiallyOpen = (sideMenuSetting: string | undefined) =>
  typeof document !== 'undefined' && document.body.offsetWidth > 1200 && sideMenuSetting !== 'disabled';

export const AppLayout = () => {
  const { user } = useAuth();
  // under 600 px the drawer is a temporary overlay
  const narrow = useMediaQuery('(max-width:599.95px)');
  const sideMenuSetting = user?.company.settings.find((s) => s.key === 'sideMenuOpen')?.value;
  const [open, setOpen] = useState(() => initiallyOpen(sideMenuSetting));
  const [mobileOpen, setMobileOpen] = useState(false);
  const toggle = () => (narrow ? setMobileOpen((v) => !v) : setOpen((v) => !v));
  const width = open ? DRAWER_WIDTH : MINI_WIDTH;
  const { root, chrome } = useChromeHeight();

  return (
    <Box ref={root} sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar onToggleMenu={toggle} />
      {narrow ? (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          ModalProps={{ keepMounted: true }}
          slotProps={{ paper: { sx: { width: DRAWER_WIDTH } } }}
          data-testid="drawer"
        >
          <Toolbar />
          <SideMenu expanded onNavigate={() => setMobileOpen(false)} />
        </Drawer>
      ) : (
        <Drawer
          variant="permanent"
          open={open}
          data-testid="drawer"
          data-open={open}
          sx={{
            width,
            flexShrink: 0,
            transition: (theme) => theme.transitions.create('width'),
            '& .MuiDrawer-paper': {
              width,
              overflowX: 'hidden',
              boxSizing: 'border-box',
              transition: (theme) => theme.transitions.create('width'),
            },
          }}
        >
          <Toolbar />
          <SideMenu expanded={open} />
        </Drawer>
      )}
      <Box component="main" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Box ref={chrome}>
          <Toolbar />
          <ExpiryNotice />
          <TrialBanner />
        </Box>
        <Box sx={{ flex: 1, minHeight: 0 }}>
          <Suspense
            fallback={
              <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
                <CircularProgress data-testid="page-loading" />
              </Box>
            }
          >
            <PayOnlyGate>
              <Outlet />
            </PayOnlyGate>
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
};
