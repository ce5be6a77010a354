import Done from '@mui/icons-material/Done';
import DoneAll from '@mui/icons-material/DoneAll';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import InsertDriveFile from '@mui/icons-material/InsertDriveFile';
import Person from '@mui/icons-material/Person';
import Place from '@mui/icons-material/Place';
import Schedule from '@mui/icons-material/Schedule';
import { Box, Link, Paper, Stack, Tooltip, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { WhatsAppText } from '../../components/WhatsAppText';
import { formatSize, readVcard, type TTimelineItem } from './simulatorState';

const time = (iso: string) => {
  const date = new Date(iso);

  return Number.isNaN(date.getTime())
    ? ''
    : `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
};

const READ_BLUE = '#34b7f1';

/** ✓ / ✓✓ / blue ✓✓ (1 pending or server, 3 delivered, 4 read), a clock while sending, a mark when failed */
const Ticks = ({ ack, failed, testId }: { ack: number; failed?: boolean; testId: string }) => {
  const { t } = useTranslation();
  const sx = { fontSize: 16, verticalAlign: 'middle' };
  let icon: ReactNode;
  let label: string;
  if (failed) {
    icon = <ErrorOutline color="error" sx={sx} />;
    label = t('simulator.ticks.failed');
  } else if (ack <= 0) {
    icon = <Schedule sx={{ ...sx, color: 'text.secondary' }} />;
    label = t('simulator.ticks.sending');
  } else if (ack <= 2) {
    icon = <Done sx={{ ...sx, color: 'text.secondary' }} />;
    label = t('simulator.ticks.sent');
  } else if (ack === 3) {
    icon = <DoneAll sx={{ ...sx, color: 'text.secondary' }} />;
    label = t('simulator.ticks.delivered');
  } else {
    icon = <DoneAll sx={{ ...sx, color: READ_BLUE }} />;
    label = t('simulator.ticks.read');
  }

  return (
    <Tooltip title={label}>
      <Box component="span" data-testid={testId} data-ack={failed ? 'failed' : ack} aria-label={label}>
        {icon}
      </Box>
    </Tooltip>
  );
};

/** a file as the bubble shows it: an image, a player, or the file's name above its type and size (two lines) */
export const MediaView = ({
  mimetype,
  dataUrl,
  fileName,
  size,
}: {
  mimetype?: string;
  dataUrl?: string;
  fileName?: string;
  size?: number;
}) => {
  const kind = mimetype?.split('/')[0];
  if (dataUrl && kind === 'image') {
    return (
      <Box
        component="img"
        src={dataUrl}
        alt={fileName ?? ''}
        sx={{ display: 'block', maxWidth: 260, maxHeight: 260, borderRadius: 1, mb: 0.5 }}
      />
    );
  }
  if (dataUrl && kind === 'audio') {
    return <Box component="audio" controls src={dataUrl} sx={{ display: 'block', width: 240, mb: 0.5 }} />;
  }
  if (dataUrl && kind === 'video') {
    return (
      <Box
        component="video"
        controls
        src={dataUrl}
        sx={{ display: 'block', maxWidth: 260, borderRadius: 1, mb: 0.5 }}
      />
    );
  }

  return (
    <Stack
      direction="row"
      spacing={1}
      alignItems="center"
      sx={{ mb: 0.5, p: 1, bgcolor: 'action.hover', borderRadius: 1 }}
    >
      <InsertDriveFile fontSize="small" />
      <Box sx={{ minWidth: 0 }}>
        {dataUrl ? (
          <Link
            href={dataUrl}
            download={fileName ?? 'file'}
            variant="body2"
            sx={{ display: 'block', wordBreak: 'break-all' }}
            data-testid="sim-file-name"
          >
            {fileName ?? mimetype}
          </Link>
        ) : (
          <Typography variant="body2" sx={{ wordBreak: 'break-all' }} data-testid="sim-file-name">
            {fileName ?? mimetype}
          </Typography>
        )}
        <Typography variant="caption" component="div" color="text.secondary" data-testid="sim-file-type">
          {[mimetype, formatSize(size)].filter(Boolean).join(' · ')}
        </Typography>
      </Box>
    </Stack>
  );
};

const LocationView = ({ location }: { location: { latitude: number; longitude: number; description?: string } }) => (
  <Stack direction="row" spacing={1} alignItems="flex-start" sx={{ mb: 0.5 }}>
    <Place color="error" fontSize="small" />
    <Box>
      {location.description ? <Typography variant="body2">{location.description}</Typography> : null}
      <Link
        variant="caption"
        href={`https://www.openstreetmap.org/?mlat=${location.latitude}&mlon=${location.longitude}#map=16/${location.latitude}/${location.longitude}`}
        target="_blank"
        rel="noreferrer"
      >
        {location.latitude}, {location.longitude}
      </Link>
    </Box>
  </Stack>
);

const VcardView = ({ vcard }: { vcard: string }) => {
  const { name, number } = readVcard(vcard);

  return (
    <Stack
      direction="row"
      spacing={1}
      alignItems="center"
      sx={{ mb: 0.5, p: 1, bgcolor: 'action.hover', borderRadius: 1 }}
    >
      <Person fontSize="small" />
      <Box>
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {name}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {number}
        </Typography>
      </Box>
    </Stack>
  );
};

/** One message of the simulated conversation: the customer's own on the right, the business's on the left. */
export const MessageBubble = ({ item }: { item: TTimelineItem }) => {
  const { t } = useTranslation();
  const mine = item.direction === 'out';
  const testId = `sim-message-${item.key}`;
  let content: ReactNode;
  let footer: ReactNode;

  if (item.direction === 'out') {
    const m = item.message;
    content = (
      <>
        {m.type === 'location' && m.location ? <LocationView location={m.location} /> : null}
        {m.type === 'vcard' && m.vcard ? <VcardView vcard={m.vcard} /> : null}
        {['image', 'audio', 'video', 'document'].includes(m.type) ? (
          <MediaView mimetype={m.mimetype} dataUrl={m.dataUrl} fileName={m.fileName} size={m.size} />
        ) : null}
        {m.body && m.type !== 'location' ? (
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            <WhatsAppText text={m.body} />
          </Typography>
        ) : null}
        {m.status === 'failed' && m.error ? (
          <Typography variant="caption" color="error">
            {m.error}
          </Typography>
        ) : null}
      </>
    );
    footer = (
      <Ticks
        ack={m.status === 'sending' ? 0 : item.read ? 4 : 3}
        failed={m.status === 'failed'}
        testId={`sim-ticks-${item.key}`}
      />
    );
  } else {
    const m = item.message;
    content = m.deleted ? (
      <Typography variant="body2" sx={{ fontStyle: 'italic', color: 'text.secondary' }}>
        {t('simulator.deleted')}
      </Typography>
    ) : (
      <>
        {m.type === 'location' && m.location ? <LocationView location={m.location} /> : null}
        {m.type === 'vcard' && m.vcard ? <VcardView vcard={m.vcard} /> : null}
        {m.type === 'media' && m.media ? (
          <MediaView
            mimetype={m.media.mimetype}
            dataUrl={m.media.dataUrl}
            fileName={m.media.fileName}
            size={m.media.size}
          />
        ) : null}
        {m.body && m.type !== 'location' ? (
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            <WhatsAppText text={m.body} />
          </Typography>
        ) : null}
      </>
    );
    footer = (
      <>
        {m.edited && !m.deleted ? (
          <Typography variant="caption" color="text.secondary" sx={{ mr: 0.5 }}>
            {t('simulator.edited')}
          </Typography>
        ) : null}
        <Ticks ack={m.ack} testId={`sim-ticks-${item.key}`} />
      </>
    );
  }

  return (
    <Box sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', px: 2, py: 0.5 }}>
      <Paper
        elevation={0}
        data-testid={testId}
        data-direction={mine ? 'sent' : 'received'}
        sx={{
          px: 1.5,
          py: 0.75,
          maxWidth: '75%',
          bgcolor: (theme) =>
            mine ? (theme.palette.mode === 'dark' ? '#005c4b' : '#d9fdd3') : theme.palette.background.paper,
          borderRadius: 2,
          boxShadow: 1,
        }}
      >
        {content}
        <Stack direction="row" spacing={0.5} alignItems="center" justifyContent="flex-end" sx={{ mt: 0.25 }}>
          <Typography variant="caption" color="text.secondary">
            {time(item.timestamp)}
          </Typography>
          {footer}
        </Stack>
      </Paper>
    </Box>
  );
};
