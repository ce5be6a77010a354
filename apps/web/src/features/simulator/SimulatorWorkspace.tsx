import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import ContactPage from '@mui/icons-material/ContactPage';
import DoneAll from '@mui/icons-material/DoneAll';
import PersonAdd from '@mui/icons-material/PersonAdd';
import Place from '@mui/icons-material/Place';
import Send from '@mui/icons-material/Send';
import {
  Avatar,
  Badge,
  Box,
  Button,
  Divider,
  IconButton,
  List,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { events } from '@zelo/shared';
import { type ChangeEvent, useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stripWhatsAppFormat } from '../../components/whatsappFormat';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { errorText, toast, toastError } from '../../components/toast';
import { LocationDialog, VcardDialog } from './ExtraDialogs';
import { MessageBubble } from './MessageBubble';
import {
  buildVcard,
  fileInboundType,
  isValidNumber,
  normalizeNumber,
  PREVIEW_MAX_BYTES,
  persistable,
  readFileBase64,
  restoreState,
  simulatorReducer,
  type TCustomer,
  type TOutboxMessage,
  type TSandboxEvent,
  type TSentMessage,
  timeline,
  unreadCount,
} from './simulatorState';

/** the largest file a simulated customer may send (the server's SANDBOX_MEDIA_MAX_BYTES) */
const MEDIA_MAX_BYTES = 16 * 1024 * 1024;

const storageKey = (connectionId: number) => `zelo.simulator.${connectionId}`;

const AVATAR_COLORS = ['#00a884', '#7c4dff', '#f4511e', '#039be5', '#c2185b', '#6d4c41', '#43a047', '#fb8c00'];
const avatarColor = (number: string) =>
  AVATAR_COLORS[[...number].reduce((acc, ch) => acc + ch.charCodeAt(0), 0) % AVATAR_COLORS.length];
const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('') || '?';

const outboxList = (data: unknown): TOutboxMessage[] => {
  if (Array.isArray(data)) {
    return data as TOutboxMessage[];
  }
  const holder = (data ?? {}) as Record<string, unknown>;
  const list = holder.messages ?? holder.outbox ?? holder.records;

  return Array.isArray(list) ? (list as TOutboxMessage[]) : [];
};

let localIds = 0;
const localId = () => `local-${Date.now().toString(36)}-${(localIds++).toString(36)}`;

type TWorkspaceProps = { connectionId: number; connected: boolean };

/** Customers on the left, the chosen customer's conversation on the right. */
export const SimulatorWorkspace = ({ connectionId, connected }: TWorkspaceProps) => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [state, dispatch] = useReducer(simulatorReducer, connectionId, (id) =>
    restoreState(typeof localStorage === 'undefined' ? null : localStorage.getItem(storageKey(id))),
  );
  const [selected, setSelected] = useState<string | null>(() => state.customers[0]?.number ?? null);
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [locationOpen, setLocationOpen] = useState(false);
  const [vcardOpen, setVcardOpen] = useState(false);
  const $messages = useRef<HTMLDivElement>(null);

  // keep the customers and what they sent across reloads
  useEffect(() => {
    try {
      localStorage.setItem(storageKey(connectionId), JSON.stringify(persistable(state)));
    } catch {
      // storage full: the simulator still works for this page's life
    }
  }, [connectionId, state]);

  const loadOutbox = useCallback(
    async (to: string) => {
      try {
        const data = await api.get<unknown>(`/sandbox/${connectionId}/outbox`, { params: { to } });
        dispatch({ type: 'outbox', number: to, messages: outboxList(data) });
      } catch (err) {
        toastError(err);
      }
    },
    [connectionId],
  );

  useEffect(() => {
    if (selected) {
      void loadOutbox(selected);
    }
  }, [selected, loadOutbox]);

  useSocketEvent(user ? events.sandbox(user.companyId) : '', (data: TSandboxEvent) => {
    if (!data || Number(data.connectionId) !== connectionId) {
      return;
    }
    if (data.action === 'read') {
      dispatch({ type: 'businessRead', number: data.from, externalIds: data.externalIds ?? [] });
    } else if (data.message) {
      dispatch({ type: 'received', message: data.message });
    }
  });

  const current = state.customers.find((c) => c.number === selected) ?? null;
  const items = selected ? timeline(state, selected) : [];

  // the open conversation is read as it arrives; scroll to the newest message
  // biome-ignore lint/correctness/useExhaustiveDependencies: on new items only
  useLayoutEffect(() => {
    if (selected) {
      dispatch({ type: 'seen', number: selected });
    }
    const el = $messages.current;
    if (el) {
      el.scrollTop = el.scrollHeight;
    }
  }, [selected, items.length]);

  const addCustomer = () => {
    const digits = normalizeNumber(number);
    if (!isValidNumber(digits)) {
      toast.error(t('simulator.invalidNumber'));

      return;
    }
    const customer: TCustomer = { number: digits, name: name.trim() || digits };
    dispatch({ type: 'addCustomer', customer });
    setSelected(digits);
    setNumber('');
    setName('');
  };

  const removeCustomer = (target: string) => {
    dispatch({ type: 'removeCustomer', number: target });
    if (selected === target) {
      setSelected(state.customers.find((c) => c.number !== target)?.number ?? null);
    }
  };

  /** POST /sandbox/:id/inbound as the chosen customer */
  const deliver = async (
    message: Omit<TSentMessage, 'localId' | 'externalId' | 'timestamp' | 'status'>,
    media?: { data: string; mimetype: string; fileName: string },
  ) => {
    if (!current) {
      return;
    }
    const id = localId();
    const to = current.number;
    dispatch({
      type: 'sending',
      number: to,
      message: { ...message, localId: id, externalId: null, timestamp: new Date().toISOString(), status: 'sending' },
    });
    try {
      const answer = await api.post<{ externalId: string }>(`/sandbox/${connectionId}/inbound`, {
        from: to,
        name: current.name,
        type: message.type,
        body: message.body,
        ...(media ? { media } : {}),
        ...(message.location ? { location: message.location } : {}),
        ...(message.vcard ? { vcard: message.vcard } : {}),
      });
      dispatch({ type: 'sent', number: to, localId: id, externalId: answer.externalId });
    } catch (err) {
      dispatch({ type: 'failed', number: to, localId: id, error: errorText(err) });
      toastError(err);
    }
  };

  const sendText = () => {
    const body = text.trim();
    if (!body) {
      return;
    }
    setText('');
    void deliver({ type: 'text', body });
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
      await deliver(
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

  const markRead = async () => {
    if (!current) {
      return;
    }
    try {
      await api.post(`/sandbox/${connectionId}/read`, { to: current.number });
      await loadOutbox(current.number);
    } catch (err) {
      toastError(err);
    }
  };

  const canSend = connected && current !== null;

  return (
    <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, display: 'flex', overflow: 'hidden' }}>
      <Box
        sx={{
          width: { xs: 200, md: 300 },
          borderRight: 1,
          borderColor: 'divider',
          display: 'flex',
          flexDirection: 'column',
        }}
      >
        <Stack spacing={1} sx={{ p: 1.5 }}>
          <TextField
            size="small"
            label={t('simulator.number')}
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                addCustomer();
              }
            }}
            helperText={t('simulator.numberHint')}
            slotProps={{ htmlInput: { inputMode: 'tel', 'data-testid': 'sim-number' } }}
          />
          <TextField
            size="small"
            label={t('simulator.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                addCustomer();
              }
            }}
            slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'sim-name' } }}
          />
          <Button variant="outlined" startIcon={<PersonAdd />} onClick={addCustomer} data-testid="sim-add-customer">
            {t('simulator.addCustomer')}
          </Button>
        </Stack>
        <Divider />
        <List dense sx={{ flex: 1, overflowY: 'auto', py: 0 }} data-testid="sim-customers">
          {state.customers.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              {t('simulator.noCustomers')}
            </Typography>
          )}
          {state.customers.map((customer) => {
            const unread = customer.number === selected ? 0 : unreadCount(state, customer.number);
            const last = timeline(state, customer.number).at(-1);
            const preview = last
              ? last.direction === 'out'
                ? last.message.body || t(`simulator.types.${last.message.type}`)
                : stripWhatsAppFormat(last.message.body) || t('simulator.types.media')
              : customer.number;

            return (
              <ListItemButton
                key={customer.number}
                selected={customer.number === selected}
                onClick={() => setSelected(customer.number)}
                data-testid={`sim-customer-${customer.number}`}
                sx={{ pr: 5, position: 'relative' }}
              >
                <ListItemAvatar sx={{ minWidth: 48 }}>
                  <Badge badgeContent={unread} color="success">
                    <Avatar sx={{ bgcolor: avatarColor(customer.number), width: 36, height: 36, fontSize: 15 }}>
                      {initials(customer.name)}
                    </Avatar>
                  </Badge>
                </ListItemAvatar>
                <ListItemText
                  primary={customer.name}
                  secondary={preview}
                  slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                />
                <Tooltip title={t('simulator.removeCustomer')}>
                  <IconButton
                    size="small"
                    edge="end"
                    sx={{ position: 'absolute', right: 8 }}
                    onClick={(e) => {
                      e.stopPropagation();
                      removeCustomer(customer.number);
                    }}
                    aria-label={t('simulator.removeCustomer')}
                  >
                    <Close fontSize="small" />
                  </IconButton>
                </Tooltip>
              </ListItemButton>
            );
          })}
        </List>
      </Box>

      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {current ? (
          <>
            <Stack
              direction="row"
              spacing={1.5}
              alignItems="center"
              sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}
            >
              <Avatar sx={{ bgcolor: avatarColor(current.number) }}>{initials(current.name)}</Avatar>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography noWrap sx={{ fontWeight: 500 }} data-testid="sim-current-name">
                  {current.name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  +{current.number}
                </Typography>
              </Box>
              <Button size="small" startIcon={<DoneAll />} onClick={() => void markRead()} data-testid="sim-read">
                {t('simulator.markRead')}
              </Button>
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
            <Stack
              direction="row"
              spacing={0.5}
              alignItems="flex-end"
              sx={{ p: 1, borderTop: 1, borderColor: 'divider' }}
            >
              <Tooltip title={t('simulator.attach')}>
                <span>
                  <IconButton
                    component="label"
                    disabled={!canSend}
                    data-testid="sim-attach-button"
                    aria-label={t('simulator.attach')}
                    sx={{ position: 'relative' }}
                  >
                    <AttachFile />
                    {/* transparent over the button: a click opens the file chooser, tests set files on it */}
                    <Box
                      component="input"
                      type="file"
                      disabled={!canSend}
                      accept="image/*,audio/*,video/*,application/*,text/*"
                      data-testid="sim-attach"
                      aria-label={t('simulator.attach')}
                      sx={{
                        position: 'absolute',
                        inset: 0,
                        opacity: 0,
                        cursor: 'pointer',
                        width: '100%',
                        height: '100%',
                      }}
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
                  <IconButton disabled={!canSend} onClick={() => setLocationOpen(true)} data-testid="sim-location">
                    <Place />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title={t('simulator.vcard.title')}>
                <span>
                  <IconButton disabled={!canSend} onClick={() => setVcardOpen(true)} data-testid="sim-vcard">
                    <ContactPage />
                  </IconButton>
                </span>
              </Tooltip>
              <TextField
                fullWidth
                multiline
                maxRows={5}
                size="small"
                disabled={!canSend}
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
                    disabled={!canSend || !text.trim()}
                    onClick={sendText}
                    data-testid="sim-send"
                    aria-label={t('simulator.send')}
                  >
                    <Send />
                  </IconButton>
                </span>
              </Tooltip>
            </Stack>
          </>
        ) : (
          <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', p: 4 }}>
            <Typography color="text.secondary">{t('simulator.pickCustomer')}</Typography>
          </Box>
        )}
      </Box>
      <LocationDialog
        open={locationOpen}
        onClose={() => setLocationOpen(false)}
        onSend={(location) => void deliver({ type: 'location', body: location.description ?? '', location })}
      />
      <VcardDialog
        open={vcardOpen}
        onClose={() => setVcardOpen(false)}
        onSend={(contact) => void deliver({ type: 'vcard', body: '', vcard: buildVcard(contact.name, contact.number) })}
      />
    </Paper>
  );
};
