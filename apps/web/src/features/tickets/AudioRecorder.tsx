import CancelIcon from '@mui/icons-material/HighlightOff';
import MicIcon from '@mui/icons-material/Mic';
import SendIcon from '@mui/icons-material/CheckCircleOutline';
import { Box, CircularProgress, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { toast } from '../../components/toast';
import { formatDuration, pickRecordingType, recordingFileName, shouldSendRecording } from './audioRecording';

type AudioRecorderProps = {
  disabled: boolean;
  onRecorded: (file: File) => Promise<void> | void;
  onRecordingChange?: (on: boolean) => void;
  /** a recording under 10000 bytes was dropped */
  onTooShort?: () => void;
};

type TState = 'idle' | 'recording' | 'sending';

/** idle → recording (timer) → send or cancel (spec 1 §4); a recording under 10000 bytes is dropped with a word. */
export const AudioRecorder = ({ disabled, onRecorded, onRecordingChange, onTooShort }: AudioRecorderProps) => {
  const { t } = useTranslation();
  const [state, setState] = useState<TState>('idle');
  const [seconds, setSeconds] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const stream = useRef<MediaStream | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  const cleanup = () => {
    if (timer.current) {
      clearInterval(timer.current);
      timer.current = null;
    }
    for (const track of stream.current?.getTracks() ?? []) {
      track.stop();
    }
    stream.current = null;
    recorder.current = null;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: stop everything on unmount only
  useEffect(() => cleanup, []);
  useEffect(() => onRecordingChange?.(state !== 'idle'), [state, onRecordingChange]);

  const start = async () => {
    try {
      const media = await navigator.mediaDevices.getUserMedia({ audio: true });
      const type = pickRecordingType((mime) => MediaRecorder.isTypeSupported(mime));
      const rec = new MediaRecorder(media, type ? { mimeType: type, audioBitsPerSecond: 128_000 } : undefined);
      chunks.current = [];
      rec.ondataavailable = (e) => {
        if (e.data.size > 0) {
          chunks.current.push(e.data);
        }
      };
      stream.current = media;
      recorder.current = rec;
      rec.start();
      setSeconds(0);
      timer.current = setInterval(() => setSeconds((s) => s + 1), 1000);
      setState('recording');
    } catch {
      cleanup();
      toast.error(t('tickets.composer.micError'));
    }
  };

  const stop = (send: boolean) => {
    const rec = recorder.current;
    if (!rec) {
      setState('idle');

      return;
    }
    rec.onstop = async () => {
      const mime = rec.mimeType || 'audio/webm';
      const blob = new Blob(chunks.current, { type: mime });
      cleanup();
      if (!send || !shouldSendRecording(blob.size)) {
        setState('idle');
        if (send) {
          onTooShort?.();
        }

        return;
      }
      setState('sending');
      try {
        await onRecorded(new File([blob], recordingFileName(mime), { type: mime.split(';')[0] }));
      } finally {
        setState('idle');
      }
    };
    rec.stop();
  };

  if (state === 'idle') {
    return (
      <Tooltip title={t('tickets.composer.record')}>
        <span>
          <IconButton
            disabled={disabled}
            onClick={() => void start()}
            aria-label={t('tickets.composer.record')}
            data-testid="composer-record"
          >
            <MicIcon />
          </IconButton>
        </span>
      </Tooltip>
    );
  }

  return (
    <Stack direction="row" alignItems="center" spacing={0.5} data-testid="composer-recording">
      <IconButton
        onClick={() => stop(false)}
        disabled={state === 'sending'}
        aria-label={t('tickets.composer.cancelRecording')}
        data-testid="composer-record-cancel"
      >
        <CancelIcon color="error" />
      </IconButton>
      {state === 'sending' ? (
        <CircularProgress size={20} />
      ) : (
        <Stack direction="row" alignItems="center" spacing={0.5}>
          <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: 'error.main' }} />
          <Typography variant="body2" data-testid="composer-record-timer">
            {formatDuration(seconds)}
          </Typography>
        </Stack>
      )}
      <IconButton
        onClick={() => stop(true)}
        disabled={state === 'sending'}
        aria-label={t('tickets.composer.sendRecording')}
        data-testid="composer-record-send"
      >
        <SendIcon color="success" />
      </IconButton>
    </Stack>
  );
};
