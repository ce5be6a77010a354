import { FULL_HEIGHT } from '../../app/layout/AppLayout';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import { Box, Paper, Tab, Tabs, Typography, useMediaQuery } from '@mui/material';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate, useParams } from 'react-router';
import { lazyNamed } from '../../components/lazyPart';
import { TicketsManager } from './TicketsManager';
import { useCatalogueEvents } from './useCatalogue';
import './i18n';

// the open ticket's conversation (composer, media, dialogs) loads when a ticket is opened: the list shows first
const Conversation = lazyNamed(() => import('./Conversation'), 'Conversation');

const Placeholder = () => {
  const { t } = useTranslation();

  return (
    <Box
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        color: 'text.secondary',
      }}
      data-testid="tickets-placeholder"
    >
      <ForumOutlinedIcon sx={{ fontSize: 96, opacity: 0.4 }} />
      <Typography variant="h5" sx={{ fontWeight: 700, letterSpacing: 2, opacity: 0.5 }}>
        ZELO
      </Typography>
      <Typography variant="body2">{t('tickets.placeholder')}</Typography>
    </Box>
  );
};

/**
 * /tickets and /tickets/:ticketId (the ticket's uuid). Wide screens: list in the left third, conversation in
 * the right two thirds. Narrow screens: tabs for the ticket and the list (spec 1 §2).
 */
const TicketsPage = () => {
  const { t } = useTranslation();
  const { ticketId } = useParams();
  const navigate = useNavigate();
  useCatalogueEvents();
  const wide = useMediaQuery((theme) => theme.breakpoints.up('md'), { noSsr: true });
  const [tab, setTab] = useState<'list' | 'ticket'>(ticketId ? 'ticket' : 'list');
  useEffect(() => setTab(ticketId ? 'ticket' : 'list'), [ticketId]);

  const height = FULL_HEIGHT;

  if (wide) {
    return (
      <Box sx={{ display: 'flex', height, minHeight: 0 }} data-testid="tickets-page" data-layout="wide">
        <Box sx={{ width: '33.333%', minWidth: 340, height: '100%' }}>
          <TicketsManager selectedUuid={ticketId} narrow={false} />
        </Box>
        <Paper square variant="outlined" sx={{ flex: 1, minWidth: 0, height: '100%', borderLeft: 0 }}>
          {ticketId ? (
            <Suspense fallback={null}>
              <Conversation uuid={ticketId} />
            </Suspense>
          ) : (
            <Placeholder />
          )}
        </Paper>
      </Box>
    );
  }

  return (
    <Box
      sx={{ display: 'flex', flexDirection: 'column', height, minHeight: 0 }}
      data-testid="tickets-page"
      data-layout="narrow"
    >
      <Tabs
        value={tab}
        onChange={(_e, v: 'list' | 'ticket') => setTab(v)}
        variant="fullWidth"
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="ticket" label={t('tickets.ticketTab')} disabled={!ticketId} data-testid="tickets-narrow-ticket" />
        <Tab value="list" label={t('tickets.listTab')} data-testid="tickets-narrow-list" />
      </Tabs>
      <Box sx={{ flex: 1, minHeight: 0, display: tab === 'list' ? 'block' : 'none' }}>
        <TicketsManager selectedUuid={ticketId} narrow />
      </Box>
      {tab === 'ticket' && ticketId ? (
        <Box sx={{ flex: 1, minHeight: 0 }}>
          <Suspense fallback={null}>
            <Conversation uuid={ticketId} onBack={() => navigate('/tickets')} />
          </Suspense>
        </Box>
      ) : null}
    </Box>
  );
};

export default TicketsPage;
