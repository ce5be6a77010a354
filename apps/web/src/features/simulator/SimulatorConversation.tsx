import Call from '@mui/icons-material/Call';
import Videocam from '@mui/icons-material/Videocam';
import ArrowBack from '@mui/icons-material/ArrowBack';
import AttachFile from '@mui/icons-material/AttachFile';
import ContactPage from '@mui/icons-material/ContactPage';
import DoneAll from '@mui/icons-material/DoneAll';
import Place from '@mui/icons-material/Place';
import Send from '@mui/icons-material/Send';
import { Avatar, Box, Button, IconButton, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { type ChangeEvent, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { toast, toastError } from '../../components/toast';
import './i18n';
import { avatarColor, initials } from './avatar';
import { LocationDialog, VcardDialog } from './ExtraDialogs';
import { MessageBubble } from './MessageBubble';
import {
  buildVcard,
  fileInboundType,
  PREVIEW_MAX_BYTES,
  readFileBase64,
  type TCustomer,
  type TTimelineItem,
} from './simulatorState';
import type { TDeliverMedia, TDeliverMessage } from './useSimulatorChat';

/** the largest file a simulated customer may send (the server's SANDBOX_MEDIA_MAX_BYTES) */
const MEDIA_MAX_BYTES = 16 * 1024 * 1024;

type TSimulatorConversationProps = {
  customer: TCustomer;
  items: TTimelineItem[];
  connected: boolean;
  onDeliver: (message: TDeliverMessage, media?: TDeliverMedia) => Promise<void>;
  onMarkRead: () => void;
  /** the list grew: the open conversation is read as it arrives */
  onSeen?: () => void;
  /** on a phone the list and the conversation take turns: back to the list */
  onBack?: () => void;
  /** the customer calls the business (the simulator page; a group cannot) */
  onCall?: (isVideo: boolean) => void;
};

/**
 * One simulated customer's conversation: the header, the messages (the customer's and the business's) and the
 * composer — text, a file, a location or a contact card. The simulator page and the flow editor's test run use it.
 */
export const SimulatorConversation = ({
  customer,
  items,
  connected,
  onDeliver,
  onMarkRead,
  onSeen,
  onBack,
  onCall,
}: TSimulatorConversationProps) => {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [locationOpen, setLocationOpen] = useState(false);
  const [vcardOpen, setVcardOpen] = useState(false);
  const $messages = useRef<HTMLDivElement>(null);

  // scroll to the newest message
  // biome-ignore lint/correctness/useExhaustiveDependencies: on new items only
  useLayoutEffect(() => {
    onSeen?.();
    const el = $messages.current;
    if (el) {
      el.scrollTop = el.scrollHeight;
    }
  }, [customer.number, items.length]);

  const sendText = () => {
    const body = text.trim();
    if (!body) {
      return;
    }
    setText('');
    void onDeliver({ type: 'text', body });
  };

  const sendFile = async (file: File) => {
    if (file.size > MEDIA_MAX_BYTES) {
      toast.error(t('simulator.fileTooLarge'));

      return;
    }
    try {
      const { base64, dataUrl } = await readFileBase64(file);
      const mimetype = file.type || 'application/octet-stream';
      const type = fileInboundType(mimetype);
      const caption = text.trim();
      setText('');
      await onDeliver(
        {
          type,
          body: caption,
          fileName: file.name,
          mimetype,
          size: file.size,
          ...(file.size <= PREVIEW_MAX_BYTES ? { dataUrl } : {}),
        },
        { data: base64, mimetype, fileName: file.name },
      );
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <>
      <Stack
        direction="row"
        spacing={1.5}
        alignItems="center"
        sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}
      >
        {onBack && (
          <IconButton
            size="small"
            edge="start"
            onClick={onBack}
            aria-label={t('simulator.back')}
            data-testid="sim-back"
          >
            <ArrowBack fontSize="small" />
          </IconButton>
        )}
        <Avatar sx={{ bgcolor: avatarColor(customer.number) }}>{initials(customer.name)}</Avatar>
        <Box sx={{ flex: 1, minWidth: 64 }}>
          <Typography noWrap sx={{ fontWeight: 500 }} data-testid="sim-current-name">
            {customer.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {customer.member ? t('simulator.groupMember', { name: customer.member.name }) : `+${customer.number}`}
          </Typography>
        </Box>
        {onCall && !customer.member && (
          <>
            <Tooltip title={t('simulator.voiceCall')}>
              <IconButton size="small" onClick={() => onCall(false)} data-testid="sim-call-voice">
                <Call fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('simulator.videoCall')}>
              <IconButton size="small" onClick={() => onCall(true)} data-testid="sim-call-video">
                <Videocam fontSize="small" />
              </IconButton>
            </Tooltip>
          </>
        )}
        <Tooltip title={t('simulator.markRead')}>
          <Button
            size="small"
            startIcon={<DoneAll />}
            onClick={onMarkRead}
            aria-label={t('simulator.markRead')}
            data-testid="sim-read"
            sx={{ minWidth: 0, '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } } }}
          >
            {/* on a phone the icon alone, so the customer's name keeps its room */}
            <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
              {t('simulator.markRead')}
            </Box>
          </Button>
        </Tooltip>
      </Stack>
      <Box
        ref={$messages}
        data-testid="sim-messages"
        sx={{
          flex: 1,
          minHeight: 0,
          overflowY: 'auto',
          py: 1,
          bgcolor: (theme) => (theme.palette.mode === 'dark' ? '#0b141a' : '#efeae2'),
        }}
      >
        {items.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', mt: 4 }}>
            {t('simulator.emptyChat')}
          </Typography>
        )}
        {items.map((item) => (
          <MessageBubble key={item.key} item={item} />
        ))}
      </Box>
      <Stack direction="row" spacing={0.5} alignItems="flex-end" sx={{ p: 1, borderTop: 1, borderColor: 'divider' }}>
        <Tooltip title={t('simulator.attach')}>
          <span>
            <IconButton
              component="label"
              disabled={!connected}
              data-testid="sim-attach-button"
              aria-label={t('simulator.attach')}
              sx={{ position: 'relative' }}
            >
              <AttachFile />
              {/* transparent over the button: a click opens the file chooser, tests set files on it */}
              <Box
                component="input"
                type="file"
                disabled={!connected}
                accept="image/*,audio/*,video/*,application/*,text/*"
                data-testid="sim-attach"
                aria-label={t('simulator.attach')}
                sx={{ position: 'absolute', inset: 0, opacity: 0, cursor: 'pointer', width: '100%', height: '100%' }}
                onChange={(e: ChangeEvent<HTMLInputElement>) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (file) {
                    void sendFile(file);
                  }
                }}
              />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t('simulator.location.title')}>
          <span>
            <IconButton disabled={!connected} onClick={() => setLocationOpen(true)} data-testid="sim-location">
              <Place />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t('simulator.vcard.title')}>
          <span>
            <IconButton disabled={!connected} onClick={() => setVcardOpen(true)} data-testid="sim-vcard">
              <ContactPage />
            </IconButton>
          </span>
        </Tooltip>
        <TextField
          fullWidth
          multiline
          maxRows={5}
          size="small"
          disabled={!connected}
          placeholder={connected ? t('simulator.inputPlaceholder') : t('simulator.notConnected')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              sendText();
            }
          }}
          slotProps={{ htmlInput: { 'data-testid': 'sim-input' } }}
        />
        <Tooltip title={t('simulator.send')}>
          <span>
            <IconButton
              color="primary"
              disabled={!connected || !text.trim()}
              onClick={sendText}
              data-testid="sim-send"
              aria-label={t('simulator.send')}
            >
              <Send />
            </IconButton>
          </span>
        </Tooltip>
      </Stack>
      <LocationDialog
        open={locationOpen}
        onClose={() => setLocationOpen(false)}
        onSend={(location) => void onDeliver({ type: 'location', body: location.description ?? '', location })}
      />
      <VcardDialog
        open={vcardOpen}
        onClose={() => setVcardOpen(false)}
        onSend={(contact) =>
          void onDeliver({ type: 'vcard', body: '', vcard: buildVcard(contact.name, contact.number) })
        }
      />
    </>
  );
};
