import UploadFile from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { errorText } from '../toast';

/** the server's progress events of an import (null before the first) */
export type TImportProgressValue = { done: number; total: number };

/** one refused row of the result list */
export type TImportErrorRow = { key: string; primary: string; secondary: string; testId?: string };

/** what the result screen shows of the server's answer */
export type TImportSummary = { summary: string; errors: TImportErrorRow[] };

type TImportDialogProps<TResult> = {
  open: boolean;
  onClose: () => void;
  progress: TImportProgressValue | null;
  resetProgress: () => void;
  /** the route the file is posted to (multipart field `file`) */
  url: string;
  /** the `accept` of the file input */
  accept: string;
  /** why a chosen file is refused before sending (null: it may be sent) */
  refuse: (file: File) => string | null;
  /** the feature's texts: `{prefix}.title`, `.resultTitle`, `.help`, `.choose`, `.start`, `.another`,
   * `.sending`, `.progress` ({done, total}) and `.errorsTitle` */
  i18nPrefix: string;
  /** the test ids: `{testId}-dialog`, `-file`, `-choose`, `-filename`, `-progress`, `-failure`, `-result`,
   * `-errors`, `-start`, `-done` */
  testId: string;
  /** the server's answer as the result screen shows it */
  summarize: (result: TResult) => TImportSummary;
  /** the import ended */
  onImported?: (result: TResult) => void;
  /** shown under the help text, before the choose button (e.g. a template to download) */
  extra?: ReactNode;
};

/**
 * Imports a spreadsheet: choose a file (checked by `refuse`), send it, the server's progress while rows are
 * written, then the counts and each refused row. Contacts and contact lists both use it.
 */
export const ImportDialog = <TResult,>({
  open,
  onClose,
  progress,
  resetProgress,
  url,
  accept,
  refuse,
  i18nPrefix: p,
  testId,
  summarize,
  onImported,
  extra,
}: TImportDialogProps<TResult>) => {
  const { t } = useTranslation();
  const $input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [result, setResult] = useState<TResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const reset = () => {
    setFile(null);
    setResult(null);
    setFailure(null);
    resetProgress();
  };

  const close = () => {
    if (uploading) {
      return;
    }
    reset();
    onClose();
  };

  const choose = (chosen: File | undefined) => {
    setFailure(null);
    setFile(null);
    if (!chosen) {
      return;
    }
    const refusal = refuse(chosen);
    if (refusal) {
      setFailure(refusal);
    } else {
      setFile(chosen);
    }
  };

  const upload = async () => {
    if (!file) {
      return;
    }
    setUploading(true);
    setFailure(null);
    resetProgress();
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      const answer = await api.upload<TResult>(url, form);
      setResult(answer);
      onImported?.(answer);
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setUploading(false);
    }
  };

  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : null;
  const shown = result === null ? null : summarize(result);

  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth data-testid={`${testId}-dialog`}>
      <DialogTitle>{shown ? t(`${p}.resultTitle`) : t(`${p}.title`)}</DialogTitle>
      <DialogContent dividers>
        {shown ? (
          <Box data-testid={`${testId}-result`}>
            <Alert severity={shown.errors.length ? 'warning' : 'success'} sx={{ mb: 2 }}>
              {shown.summary}
            </Alert>
            {shown.errors.length > 0 && (
              <>
                <Typography variant="subtitle2">{t(`${p}.errorsTitle`)}</Typography>
                <List dense sx={{ maxHeight: 320, overflowY: 'auto' }} data-testid={`${testId}-errors`}>
                  {shown.errors.map((row) => (
                    <ListItem key={row.key} divider data-testid={row.testId}>
                      <ListItemText primary={row.primary} secondary={row.secondary} />
                    </ListItem>
                  ))}
                </List>
              </>
            )}
          </Box>
        ) : (
          <Box>
            <Typography variant="body2" sx={{ mb: extra ? 1 : 2 }}>
              {t(`${p}.help`)}
            </Typography>
            {extra}
            <input
              ref={$input}
              type="file"
              hidden
              accept={accept}
              data-testid={`${testId}-file`}
              onChange={(e) => {
                choose(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            <Box>
              <Button
                variant="outlined"
                startIcon={<UploadFile />}
                onClick={() => $input.current?.click()}
                disabled={uploading}
                data-testid={`${testId}-choose`}
              >
                {t(`${p}.choose`)}
              </Button>
            </Box>
            {file && (
              <Typography variant="body2" sx={{ mt: 1, wordBreak: 'break-all' }} data-testid={`${testId}-filename`}>
                {file.name}
              </Typography>
            )}
            {uploading && (
              <Box sx={{ mt: 2 }}>
                <LinearProgress
                  variant={percent === null ? 'indeterminate' : 'determinate'}
                  value={percent ?? 0}
                  data-testid={`${testId}-progress`}
                />
                <Typography variant="caption" color="text.secondary">
                  {progress && progress.total > 0
                    ? t(`${p}.progress`, { done: progress.done, total: progress.total })
                    : t(`${p}.sending`)}
                </Typography>
              </Box>
            )}
            {failure && (
              <Alert severity="error" sx={{ mt: 2 }} data-testid={`${testId}-failure`}>
                {failure}
              </Alert>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {shown ? (
          <>
            <Button onClick={reset} color="inherit">
              {t(`${p}.another`)}
            </Button>
            <Button onClick={close} variant="contained" data-testid={`${testId}-done`}>
              {t('common.close')}
            </Button>
          </>
        ) : (
          <>
            <Button onClick={close} color="inherit" disabled={uploading}>
              {t('common.cancel')}
            </Button>
            <Button
              variant="contained"
              onClick={() => void upload()}
              disabled={!file || uploading}
              data-testid={`${testId}-start`}
            >
              {t(`${p}.start`)}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
};
