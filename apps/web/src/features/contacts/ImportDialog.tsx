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
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/http';
import { errorText } from '../../components/toast';
import { i18n } from '../../i18n';
import { CONTACTS_QUERY_KEY } from './contactsCache';
import type { TImportProgress } from './useContacts';

type TImportResult = {
  newContacts: { contactName: string; contactId: number }[];
  errorBag: { contactName: string; error: string; details?: { path: string; message: string }[] }[];
};

/** The text of one failed row: the error code's translation, then the fields at fault. */
const rowError = (row: TImportResult['errorBag'][number]) => {
  const code = i18n.exists(`errors.${row.error}`) ? i18n.t(`errors.${row.error}`) : row.error;
  const details = (row.details ?? [])
    .map(
      (d) =>
        `${i18n.t(`contacts.import.fields.${d.path}`, { defaultValue: d.path })}: ${i18n.t(`validation.${d.message}`, { defaultValue: d.message })}`,
    )
    .join(' · ');

  return details || code;
};

type TImportDialogProps = {
  open: boolean;
  onClose: () => void;
  progress: TImportProgress | null;
  resetProgress: () => void;
};

/** Import contacts from an .xlsx workbook (columns name/Nome, number/Telefone, email/Email) with progress. */
export const ImportDialog = ({ open, onClose, progress, resetProgress }: TImportDialogProps) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const $input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [result, setResult] = useState<TImportResult | null>(null);
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
    if (!chosen) {
      return;
    }
    if (!chosen.name.toLowerCase().endsWith('.xlsx')) {
      setFile(null);
      setFailure(t('contacts.import.onlyXlsx'));

      return;
    }
    setFile(chosen);
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
      const answer = await api.upload<TImportResult>('/contacts/import', form);
      setResult({ newContacts: answer?.newContacts ?? [], errorBag: answer?.errorBag ?? [] });
      void queryClient.invalidateQueries({ queryKey: CONTACTS_QUERY_KEY });
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setUploading(false);
    }
  };

  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : null;

  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth data-testid="contacts-import-dialog">
      <DialogTitle>{result ? t('contacts.import.resultTitle') : t('contacts.import.title')}</DialogTitle>
      <DialogContent dividers>
        {result ? (
          <Box data-testid="contacts-import-result">
            <Alert severity={result.errorBag.length ? 'warning' : 'success'} sx={{ mb: 2 }}>
              {t('contacts.import.summary', { created: result.newContacts.length, failed: result.errorBag.length })}
            </Alert>
            {result.errorBag.length > 0 && (
              <>
                <Typography variant="subtitle2">{t('contacts.import.errorsTitle')}</Typography>
                <List dense sx={{ maxHeight: 320, overflowY: 'auto' }} data-testid="contacts-import-errors">
                  {result.errorBag.map((row, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; the order is the sheet's
                    <ListItem key={index} divider>
                      <ListItemText
                        primary={row.contactName || t('contacts.import.noName')}
                        secondary={rowError(row)}
                      />
                    </ListItem>
                  ))}
                </List>
              </>
            )}
          </Box>
        ) : (
          <Box>
            <Typography variant="body2" sx={{ mb: 2 }}>
              {t('contacts.import.help')}
            </Typography>
            <input
              ref={$input}
              type="file"
              hidden
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              data-testid="contacts-import-file"
              onChange={(e) => {
                choose(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            <Button
              variant="outlined"
              startIcon={<UploadFile />}
              onClick={() => $input.current?.click()}
              disabled={uploading}
              data-testid="contacts-import-choose"
            >
              {t('contacts.import.choose')}
            </Button>
            {file && (
              <Typography variant="body2" sx={{ mt: 1 }} data-testid="contacts-import-filename">
                {file.name}
              </Typography>
            )}
            {uploading && (
              <Box sx={{ mt: 2 }}>
                <LinearProgress
                  variant={percent === null ? 'indeterminate' : 'determinate'}
                  value={percent ?? 0}
                  data-testid="contacts-import-progress"
                />
                <Typography variant="caption" color="text.secondary">
                  {progress
                    ? t('contacts.import.progress', { done: progress.done, total: progress.total })
                    : t('contacts.import.sending')}
                </Typography>
              </Box>
            )}
            {failure && (
              <Alert severity="error" sx={{ mt: 2 }} data-testid="contacts-import-failure">
                {failure}
              </Alert>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {result ? (
          <>
            <Button onClick={reset} color="inherit">
              {t('contacts.import.another')}
            </Button>
            <Button onClick={close} variant="contained" data-testid="contacts-import-done">
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
              data-testid="contacts-import-start"
            >
              {t('contacts.import.start')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
};
