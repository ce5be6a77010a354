import { AttachFile, ContentCopy, DeleteOutline, Visibility, VisibilityOff } from '@mui/icons-material';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import type { TConnection } from '@zelo/shared';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { toast, toastError } from '../../components/toast';
import { useConnections } from '../connections/useConnections';
import {
  API_ERRORS,
  curlJson,
  curlMultipart,
  endpointOf,
  maskedToken,
  SAMPLE_ANSWER,
  type TTryAnswer,
  trySend,
} from './apiExamples';
import './i18n';

const EXAMPLE_NUMBER = '5511999999999';

const Code = ({ children, testId }: { children: ReactNode; testId?: string }) => (
  <Box
    component="pre"
    data-testid={testId}
    sx={{
      m: 0,
      p: 1.5,
      borderRadius: 1,
      bgcolor: 'action.hover',
      fontFamily: 'monospace',
      fontSize: 13,
      overflowX: 'auto',
      whiteSpace: 'pre',
    }}
  >
    {children}
  </Box>
);

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
    <Typography variant="h6" gutterBottom>
      {title}
    </Typography>
    <Stack spacing={1.5}>{children}</Stack>
  </Paper>
);

/** the connection's whole token: GET /whatsapp/:id?session=0 shows it to admins */
const fetchToken = async (id: number) =>
  (await api.get<TConnection>(`/whatsapp/${id}`, { params: { session: 0 } })).token ?? '';

/**
 * /messages-api (plan useExternalApi, checked by the route guard and by the API itself): how other systems send
 * through `POST /api/messages/send`, with curl examples built from the company's own connections and their
 * tokens (masked until an admin reveals one), the answer and error codes, the Idempotency-Key, and a form that
 * calls the API with the chosen connection's token and shows its answer.
 */
const MessagesApiPage = () => {
  const { t } = useTranslation();
  const { isAdmin } = useAuth();
  const connections = useConnections();
  const withToken = (connections.data ?? []).filter((c) => c.token);
  const [selected, setSelected] = useState<number | ''>('');
  const [revealed, setRevealed] = useState<Record<number, string>>({});
  const [number, setNumber] = useState('');
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<TTryAnswer | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const current = withToken.find((c) => c.id === selected) ?? withToken[0];
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const endpoint = endpointOf(origin);
  const shownToken = current ? (revealed[current.id] ?? maskedToken(current.token ?? '')) : '<token>';

  const wholeToken = async (id: number) => revealed[id] ?? (await fetchToken(id));
  const toggleReveal = async (c: TConnection) => {
    if (revealed[c.id]) {
      setRevealed(({ [c.id]: _, ...rest }) => rest);
      return;
    }
    try {
      const token = await fetchToken(c.id);
      setRevealed((r) => ({ ...r, [c.id]: token }));
    } catch (err) {
      toastError(err);
    }
  };
  const copy = async (c: TConnection) => {
    try {
      await navigator.clipboard.writeText(await wholeToken(c.id));
      toast.success(t('messagesApi.copied'));
    } catch (err) {
      toastError(err);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!current) {
      return;
    }
    setSending(true);
    try {
      const result = await trySend(await wholeToken(current.id), { number, body, file });
      setAnswer(result);
      if (result.status === 200) {
        toast.success(t('messagesApi.success'));
      } else if ((result.body as { error?: string } | null)?.error === 'ERR_PLAN_FEATURE_DISABLED') {
        toast.error(t('messagesApi.unauthorized'));
      }
    } catch (err) {
      toastError(err);
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack
      spacing={2}
      sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1000, mx: 'auto', width: '100%' }}
      data-testid="messages-api"
    >
      <Typography variant="h5">{t('messagesApi.title')}</Typography>
      <Typography color="text.secondary">{t('messagesApi.intro')}</Typography>
      <Section title={t('messagesApi.endpoint')}>
        <Code testId="messages-api-endpoint">{`POST ${endpoint}`}</Code>
      </Section>

      <Section title={t('messagesApi.connections')}>
        {connections.isLoading && <CircularProgress size={24} />}
        {!connections.isLoading && withToken.length === 0 && (
          <Alert severity="info" data-testid="messages-api-no-token">
            {t('messagesApi.noConnections')}
          </Alert>
        )}
        {(connections.data ?? []).map((c) => (
          <Stack
            key={c.id}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            alignItems={{ sm: 'center' }}
            data-testid={`messages-api-connection-${c.id}`}
            sx={{ borderBottom: 1, borderColor: 'divider', pb: 1 }}
          >
            <Typography fontWeight={600} sx={{ minWidth: 160 }}>
              {c.name}
            </Typography>
            {c.token ? (
              <Stack direction="row" alignItems="center" spacing={0.5} sx={{ minWidth: 0, flex: 1 }}>
                <Typography
                  variant="body2"
                  sx={{ fontFamily: 'monospace', wordBreak: 'break-all', flex: 1 }}
                  data-testid={`messages-api-token-${c.id}`}
                >
                  {revealed[c.id] ?? maskedToken(c.token)}
                </Typography>
                {isAdmin && (
                  <>
                    <Tooltip title={revealed[c.id] ? t('messagesApi.hide') : t('messagesApi.reveal')}>
                      <IconButton
                        size="small"
                        aria-label={revealed[c.id] ? t('messagesApi.hide') : t('messagesApi.reveal')}
                        onClick={() => void toggleReveal(c)}
                        data-testid={`messages-api-reveal-${c.id}`}
                      >
                        {revealed[c.id] ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('messagesApi.copy')}>
                      <IconButton size="small" aria-label={t('messagesApi.copy')} onClick={() => void copy(c)}>
                        <ContentCopy fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </>
                )}
              </Stack>
            ) : (
              <Typography variant="body2" color="text.secondary">
                {t('messagesApi.noToken')}
              </Typography>
            )}
          </Stack>
        ))}
        {!isAdmin && withToken.length > 0 && (
          <Typography variant="caption" color="text.secondary">
            {t('messagesApi.adminsOnly')}
          </Typography>
        )}
        {withToken.length > 0 && (
          <TextField
            select
            size="small"
            label={t('messagesApi.connection')}
            value={current?.id ?? ''}
            onChange={(e) => setSelected(Number(e.target.value))}
            sx={{ maxWidth: 360 }}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'messages-api-connection' } as object } }}
          >
            {withToken.map((c) => (
              <MenuItem key={c.id} value={c.id} data-testid={`messages-api-connection-option-${c.id}`}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Section>

      <Section title={t('messagesApi.textTitle')}>
        <Typography variant="body2">{t('messagesApi.textDoc')}</Typography>
        <Code testId="messages-api-curl-json">
          {curlJson(endpoint, shownToken, EXAMPLE_NUMBER, t('messagesApi.exampleBody'))}
        </Code>
      </Section>
      <Section title={t('messagesApi.mediaTitle')}>
        <Typography variant="body2">{t('messagesApi.mediaDoc')}</Typography>
        <Code testId="messages-api-curl-multipart">
          {curlMultipart(endpoint, shownToken, EXAMPLE_NUMBER, 'Sua fatura')}
        </Code>
      </Section>
      <Section title={t('messagesApi.idempotencyTitle')}>
        <Typography variant="body2">{t('messagesApi.idempotencyDoc')}</Typography>
      </Section>
      <Section title={t('messagesApi.answerTitle')}>
        <Typography variant="body2">{t('messagesApi.answerDoc')}</Typography>
        <Code>{SAMPLE_ANSWER}</Code>
      </Section>
      <Section title={t('messagesApi.errorsTitle')}>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('messagesApi.status')}</TableCell>
                <TableCell>{t('messagesApi.code')}</TableCell>
                <TableCell>{t('messagesApi.meaning')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {API_ERRORS.map(([status, code]) => (
                <TableRow key={code}>
                  <TableCell>{status}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{code}</TableCell>
                  <TableCell>{t(`messagesApi.errors.${code}`)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </Section>

      <Section title={t('messagesApi.tryTitle')}>
        <Box component="form" onSubmit={submit} data-testid="messages-api-try">
          <Stack spacing={1.5}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
              <TextField
                size="small"
                label={t('messagesApi.tryNumber')}
                value={number}
                onChange={(e) => setNumber(e.target.value)}
                required
                placeholder={EXAMPLE_NUMBER}
                slotProps={{ htmlInput: { 'data-testid': 'messages-api-number', inputMode: 'tel' } }}
              />
              <TextField
                size="small"
                label={t('messagesApi.tryBody')}
                value={body}
                onChange={(e) => setBody(e.target.value)}
                required={!file}
                fullWidth
                slotProps={{ htmlInput: { 'data-testid': 'messages-api-body' } }}
              />
            </Stack>
            <input
              ref={fileInput}
              type="file"
              hidden
              data-testid="messages-api-file"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                e.target.value = '';
              }}
            />
            <Stack direction="row" spacing={1} alignItems="center" sx={{ minWidth: 0 }}>
              <Button size="small" startIcon={<AttachFile />} onClick={() => fileInput.current?.click()}>
                {t('messagesApi.tryFile')}
              </Button>
              {file && (
                <>
                  <Typography variant="body2" noWrap sx={{ minWidth: 0 }} data-testid="messages-api-file-name">
                    {file.name}
                  </Typography>
                  <IconButton size="small" aria-label={t('messagesApi.tryRemoveFile')} onClick={() => setFile(null)}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </>
              )}
            </Stack>
            <Box>
              <Button
                type="submit"
                variant="contained"
                disabled={!current || !isAdmin || sending}
                data-testid="messages-api-send"
              >
                {sending ? <CircularProgress size={22} /> : t('messagesApi.trySend')}
              </Button>
            </Box>
            {answer && (
              <Box>
                <Typography variant="subtitle2">{t('messagesApi.tryAnswer', { status: answer.status })}</Typography>
                <Code testId="messages-api-answer">{JSON.stringify(answer.body, null, 2)}</Code>
              </Box>
            )}
          </Stack>
        </Box>
      </Section>
    </Stack>
  );
};

export default MessagesApiPage;
