import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  LinearProgress,
  Stack,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../../i18n/useTranslation';
import { toast, toastError } from '../../../components/toast';
import '../i18n';
import { uploadFlowMedia } from '../flowsApi';
import { compressImage, type TMediaKind } from './media';
import { MediaPicker } from './MediaPicker';
import { text } from './nodeForms';
import type { TNodeDialogProps } from './nodeSpec';

const ADDED_KEYS: Record<TMediaKind, string> = {
  img: 'flows.dialogs.imageAdded',
  audio: 'flows.dialogs.audioAdded',
  video: 'flows.dialogs.videoAdded',
};

/**
 * The image, audio and video dialogs (spec 3 §2.9): one file (an image compressed first), the record flag for
 * audio and video, MP4 only for video. The file is uploaded on save; the node keeps the stored name as `url`.
 */
export const MediaNodeDialog = ({ kind, data, onSubmit, onClose }: TNodeDialogProps & { kind: TMediaKind }) => {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [record, setRecord] = useState(Boolean(data?.record));
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState(false);
  const stored = text(data?.original ?? data?.url) || null;

  const save = async () => {
    if (!file && !data?.url) {
      setMissing(true);

      return;
    }
    setBusy(true);
    try {
      let url = text(data?.url);
      let original = text(data?.original);
      if (file) {
        const answer = await uploadFlowMedia(kind, kind === 'img' ? await compressImage(file) : file);
        url = answer.name;
        original = answer.original || file.name;
        toast.success(t(ADDED_KEYS[kind]));
      }
      onSubmit({ ...(data ?? {}), url, original, ...(kind === 'img' ? {} : { record }) });
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      data-testid={`flow-dialog-${kind}-dialog`}
    >
      <DialogTitle>
        {data
          ? t('flows.dialogs.editTitle', { type: t(`flows.types.${kind}`) })
          : t('flows.dialogs.addTitle', { type: t(`flows.types.${kind}`) })}
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          {kind === 'video' && <Alert severity="warning">{t('flows.dialogs.videoWarning')}</Alert>}
          <MediaPicker
            kind={kind}
            fileName={file?.name ?? stored}
            disabled={busy}
            onPick={(f) => {
              setFile(f);
              setMissing(false);
            }}
            testId={`flow-${kind}-file`}
          />
          {missing && <Alert severity="error">{t('validation.flowFileRequired')}</Alert>}
          {kind !== 'img' && (
            <FormControlLabel
              control={<Checkbox checked={record} onChange={(e) => setRecord(e.target.checked)} />}
              label={t('flows.dialogs.record')}
            />
          )}
          {busy && <LinearProgress />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose} disabled={busy}>
          {t('flows.dialogs.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void save()}
          disabled={busy}
          data-testid={`flow-dialog-${kind}-save`}
        >
          {data ? t('flows.dialogs.edit') : t('flows.dialogs.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
