import AttachFileIcon from '@mui/icons-material/AttachFile';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SendIcon from '@mui/icons-material/Send';
import {
  Alert,
  Box,
  FormControlLabel,
  IconButton,
  LinearProgress,
  Paper,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { TMessage, TQuickMessage, TTicket } from '@zelo/shared';
import { type ClipboardEvent, type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { toast } from '../../components/toast';
import { AttachmentsPreview } from './AttachmentsPreview';
import { AudioRecorder } from './AudioRecorder';
import { formatTimeLeft, type TWindowState } from './channelWindow';
import { EmojiPicker } from './EmojiPicker';
import { QuickAnswersPopup } from './QuickAnswersPopup';
import { ReplyBar } from './ReplyBar';
import { signBody } from './messageLogic';
import { composerLimit, composerLimitText, keepsTextAfter } from './composerLimit';
import { filterQuickAnswers } from './quickAnswers';
import { downloadQuickMessageFile } from './quickMessageFile';
import { useSignOption } from './signOption';
import { useQuickMessages } from './useCatalogue';
import { useViewer } from './useViewer';

type ComposerProps = {
  ticket: TTicket;
  replyTo: TMessage | null;
  onCancelReply: () => void;
  /** resolves to the refusal when the server refused the text (null when stored) */
  sendText: (body: string, quoted: TMessage | null) => Promise<{ status?: number } | null>;
  sendFiles: (files: File[], caption: string) => Promise<boolean>;
  /** the customer-service window of the ticket's transport (Cloud API); 'none' for transports without one */
  channelWindow?: TWindowState;
};

/** What the composer says about the customer-service window: closed (sending off), or the time left. */
const WindowNotice = ({ state }: { state: TWindowState }) => {
  const { t } = useTranslation();
  if (state.state === 'closed') {
    return (
      <Alert
        severity="warning"
        icon={<ScheduleIcon fontSize="inherit" />}
        sx={{ mx: 1, mt: 1, py: 0 }}
        data-testid="composer-window-notice"
        data-state="closed"
      >
        {t('tickets.composer.windowClosed')}
      </Alert>
    );
  }
  if (state.state === 'open' && state.msLeft !== null) {
    return (
      <Stack
        direction="row"
        spacing={0.5}
        alignItems="center"
        justifyContent="flex-end"
        sx={{ px: 2, pt: 0.5, color: 'text.secondary' }}
        data-testid="composer-window-notice"
        data-state="open"
      >
        <ScheduleIcon sx={{ fontSize: 14 }} />
        <Typography variant="caption">
          {t('tickets.composer.windowLeft', { time: formatTimeLeft(state.msLeft) })}
        </Typography>
      </Stack>
    );
  }

  return null;
};

/**
 * The message composer (spec 1 §2, §4, §5): disabled unless the ticket is open, and outside the customer-service
 * window of a Cloud API connection.
 */
export const Composer = ({
  ticket,
  replyTo,
  onCancelReply,
  sendText,
  sendFiles,
  channelWindow = { state: 'none' },
}: ComposerProps) => {
  const { t } = useTranslation();
  const viewer = useViewer();
  const wide = useMediaQuery((theme) => theme.breakpoints.up('md'));
  const { sign, setSign } = useSignOption();
  const quickMessages = useQuickMessages();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [caption, setCaption] = useState('');
  const [sendingFiles, setSendingFiles] = useState(false);
  const [recording, setRecording] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const windowClosed = channelWindow.state === 'closed';
  const open = ticket.status === 'open' && !windowClosed;
  const [highlight, setHighlight] = useState(0);
  const [dismissed, setDismissed] = useState(false);

  const matches = useMemo(() => filterQuickAnswers(quickMessages.data ?? [], text), [quickMessages.data, text]);
  const suggestions = open && !dismissed ? matches : [];
  /** typing starts a new suggestion list */
  const onType = (value: string) => {
    setText(value);
    setHighlight(0);
    setDismissed(false);
  };
  // the reply bar focuses the input, ready to type
  useEffect(() => {
    if (replyTo) {
      input.current?.focus();
    }
  }, [replyTo]);

  const [fetchingFile, setFetchingFile] = useState(false);
  /**
   * A quick answer: its text goes into the input; one with a file fetches it and opens the attachments
   * preview with the text as the caption, so sending sends the file with its caption.
   */
  const pickQuickAnswer = (item: TQuickMessage) => {
    setDismissed(true);
    if (!item.mediaPath) {
      setText(item.message);
      input.current?.focus();

      return;
    }
    setText('');
    setFetchingFile(true);
    downloadQuickMessageFile(item)
      .then((file) => {
        setFiles([file]);
        setCaption(item.message);
      })
      .catch(() => {
        toast.error(t('tickets.composer.quickAnswerFileFailed'));
        setText(item.message);
      })
      .finally(() => setFetchingFile(false));
  };

  const limit = composerLimit(text, viewer.name, sign);
  const submit = () => {
    if (!open || !text.trim() || limit.over) {
      return; // empty, whitespace-only or over-long text is not sent
    }
    const typed = text;
    const body = signBody(text.trim(), viewer.name, sign);
    setText('');
    onCancelReply();
    void sendText(body, replyTo).then((refusal) => {
      // refused for what it holds: the text comes back to be fixed, unless something new was typed meanwhile
      if (refusal && keepsTextAfter(refusal.status)) {
        setText((current) => current || typed);
      }
    });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (suggestions.length > 0) {
      // the quick answers: arrows move, Enter or Tab takes one, Escape closes the list
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setHighlight((i) => (i + step + suggestions.length) % suggestions.length);

        return;
      }
      if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
        e.preventDefault();
        pickQuickAnswer(suggestions[Math.min(highlight, suggestions.length - 1)]);

        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setDismissed(true);

        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  const onPaste = (e: ClipboardEvent) => {
    if (!open) {
      return;
    }
    const pasted = Array.from(e.clipboardData.files ?? []);
    if (pasted.length > 0) {
      e.preventDefault();
      setFiles((list) => [...list, ...pasted]);
    }
  };

  const addEmoji = (emoji: string) => {
    const el = input.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + emoji + text.slice(end));
  };

  const onSendFiles = async () => {
    setSendingFiles(true);
    const ok = await sendFiles(files, sign && caption.trim() ? signBody(caption.trim(), viewer.name, true) : caption);
    setSendingFiles(false);
    if (ok) {
      setFiles([]);
      setCaption('');
    }
  };

  if (files.length > 0) {
    return (
      <AttachmentsPreview
        files={files}
        caption={caption}
        onCaption={setCaption}
        onRemove={(index) => setFiles((list) => list.filter((_f, i) => i !== index))}
        onCancel={() => setFiles([])}
        onSend={() => void onSendFiles()}
        sending={sendingFiles}
      />
    );
  }

  return (
    <Paper
      square
      elevation={0}
      sx={{ borderTop: 1, borderColor: 'divider', position: 'relative' }}
      data-testid="composer"
    >
      <QuickAnswersPopup items={suggestions} highlight={highlight} onPick={pickQuickAnswer} />
      <WindowNotice state={channelWindow} />
      {fetchingFile ? (
        <LinearProgress aria-label={t('tickets.composer.quickAnswerFile')} data-testid="composer-fetching-file" />
      ) : null}
      {replyTo ? (
        <ReplyBar message={replyTo} contactName={ticket.contact?.name ?? ''} onCancel={onCancelReply} />
      ) : null}
      <Stack direction="row" alignItems="flex-end" spacing={0.5} sx={{ p: 1 }}>
        {!recording ? (
          <>
            <EmojiPicker disabled={!open} onPick={addEmoji} />
            <Tooltip title={t('tickets.composer.attach')}>
              <span>
                <IconButton
                  disabled={!open}
                  onClick={() => fileInput.current?.click()}
                  aria-label={t('tickets.composer.attach')}
                  data-testid="composer-attach"
                >
                  <AttachFileIcon />
                </IconButton>
              </span>
            </Tooltip>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              data-testid="composer-file-input"
              onChange={(e) => {
                const chosen = Array.from(e.target.files ?? []);
                e.target.value = '';
                if (chosen.length) {
                  setFiles(chosen);
                }
              }}
            />
            {wide ? (
              <FormControlLabel
                sx={{ mx: 0.5 }}
                control={
                  <Switch
                    size="small"
                    checked={sign}
                    disabled={!open}
                    onChange={(e) => setSign(e.target.checked)}
                    slotProps={{ input: { 'data-testid': 'composer-sign' } as object }}
                  />
                }
                label={t('tickets.composer.sign')}
              />
            ) : null}
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <TextField
                inputRef={input}
                fullWidth
                multiline
                maxRows={5}
                size="small"
                disabled={!open}
                value={text}
                onChange={(e) => onType(e.target.value)}
                onKeyDown={onKeyDown}
                onPaste={onPaste}
                placeholder={
                  open
                    ? t('tickets.composer.placeholderQuick')
                    : windowClosed
                      ? t('tickets.composer.placeholderWindowClosed')
                      : t('tickets.composer.placeholderClosed')
                }
                error={limit.over}
                helperText={limit.warn ? composerLimitText(t, limit) : undefined}
                slotProps={{
                  htmlInput: { 'data-testid': 'composer-input', 'aria-label': t('tickets.composer.placeholder') },
                  formHelperText: { 'data-testid': 'composer-limit' } as object,
                }}
                sx={{ '& .MuiInputBase-root': { borderRadius: 3, bgcolor: 'background.default' } }}
              />
            </Box>
          </>
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1, alignSelf: 'center', pl: 1 }}>
            {t('tickets.composer.recording')}
          </Typography>
        )}
        {!text.trim() ? (
          <AudioRecorder
            disabled={!open}
            onRecordingChange={setRecording}
            onRecorded={async (file) => {
              await sendFiles([file], '');
            }}
            onTooShort={() => toast.info(t('tickets.composer.recordingTooShort'))}
          />
        ) : null}
        {!recording ? (
          <Tooltip title={t('tickets.composer.send')}>
            <span>
              <IconButton
                color="primary"
                disabled={!open || !text.trim() || limit.over}
                onClick={submit}
                aria-label={t('tickets.composer.send')}
                data-testid="composer-send"
              >
                <SendIcon />
              </IconButton>
            </span>
          </Tooltip>
        ) : null}
      </Stack>
    </Paper>
  );
};
