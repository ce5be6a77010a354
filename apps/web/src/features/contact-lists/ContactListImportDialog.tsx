import Download from '@mui/icons-material/Download';
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
  Link,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import type { TContactListImportError, TContactListImportResult } from '@zelo/shared';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/http';
import { errorText } from '../../components/toast';
import { currentLanguage } from '../../i18n';
import { SAMPLE_SHEETS } from './i18n';
import type { TImportProgress } from './useContactLists';

type TContactListImportDialogProps = {
  open: boolean;
  contactListId: number;
  onClose: () => void;
  /** the server's `import-progress` events for this list (null before the first) */
  progress: TImportProgress | null;
  resetProgress: () => void;
  /** the import ended (the list's items changed) */
  onImported?: (result: TContactListImportResult) => void;
};

/** the text of a sample sheet as a link the browser downloads */
const sampleHref = () =>
  `data:text/csv;charset=utf-8,${encodeURIComponent(`\uFEFF${SAMPLE_SHEETS[currentLanguage()] ?? SAMPLE_SHEETS.pt}`)}`;

/**
 * Imports an .xlsx or .csv into a list: the server's progress while rows are written, then the counts and
 * each refused row with its row number and reason. A legacy .xls is turned away here already, with the
 * advice to save it as .xlsx (the server refuses it the same way).
 */
export const ContactListImportDialog = ({
  open,
  contactListId,
  onClose,
  progress,
  resetProgress,
  onImported,
}: TContactListImportDialogProps) => {
  const { t } = useTranslation();
  const $input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [result, setResult] = useState<TContactListImportResult | null>(null);
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
    const name = chosen.name.toLowerCase();
    if (name.endsWith('.xls')) {
      setFailure(t('contactLists.import.legacyXls'));
    } else if (!name.endsWith('.xlsx') && !name.endsWith('.csv')) {
      setFailure(t('contactLists.import.onlySheets'));
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
      const answer = await api.upload<TContactListImportResult>(`/contact-lists/${contactListId}/upload`, form);
      setResult(answer);
      onImported?.(answer);
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setUploading(false);
    }
  };

  const rowText = (row: TContactListImportError) => {
    const reason = t(`validation.${row.reason}`, { defaultValue: row.reason });

    return row.field ? `${t(`contactLists.import.fields.${row.field}`)}: ${reason}` : reason;
  };
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : null;

  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth data-testid="contact-list-import-dialog">
      <DialogTitle>{result ? t('contactLists.import.resultTitle') : t('contactLists.import.title')}</DialogTitle>
      <DialogContent dividers>
        {result ? (
          <Box data-testid="contact-list-import-result">
            <Alert severity={result.errors.length ? 'warning' : 'success'} sx={{ mb: 2 }}>
              {t('contactLists.import.summary', {
                total: result.total,
                created: result.created,
                updated: result.updated,
                failed: result.errors.length,
              })}
            </Alert>
            {result.errors.length > 0 && (
              <>
                <Typography variant="subtitle2">{t('contactLists.import.errorsTitle')}</Typography>
                <List dense sx={{ maxHeight: 320, overflowY: 'auto' }} data-testid="contact-list-import-errors">
                  {result.errors.map((row) => (
                    <ListItem key={`${row.row}-${row.field ?? ''}`} divider data-testid={`import-error-row-${row.row}`}>
                      <ListItemText primary={t('contactLists.import.row', { row: row.row })} secondary={rowText(row)} />
                    </ListItem>
                  ))}
                </List>
              </>
            )}
          </Box>
        ) : (
          <Box>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {t('contactLists.import.help')}
            </Typography>
            <Link
              href={sampleHref()}
              download="modelo-lista-contatos.csv"
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 2 }}
              data-testid="contact-list-import-template"
            >
              <Download fontSize="small" aria-hidden />
              {t('contactLists.import.template')}
            </Link>
            <input
              ref={$input}
              type="file"
              hidden
              accept=".xlsx,.csv,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
              data-testid="contact-list-import-file"
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
                data-testid="contact-list-import-choose"
              >
                {t('contactLists.import.choose')}
              </Button>
            </Box>
            {file && (
              <Typography
                variant="body2"
                sx={{ mt: 1, wordBreak: 'break-all' }}
                data-testid="contact-list-import-filename"
              >
                {file.name}
              </Typography>
            )}
            {uploading && (
              <Box sx={{ mt: 2 }}>
                <LinearProgress
                  variant={percent === null ? 'indeterminate' : 'determinate'}
                  value={percent ?? 0}
                  data-testid="contact-list-import-progress"
                />
                <Typography variant="caption" color="text.secondary">
                  {progress && progress.total > 0
                    ? t('contactLists.import.progress', { done: progress.done, total: progress.total })
                    : t('contactLists.import.sending')}
                </Typography>
              </Box>
            )}
            {failure && (
              <Alert severity="error" sx={{ mt: 2 }} data-testid="contact-list-import-failure">
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
              {t('contactLists.import.another')}
            </Button>
            <Button onClick={close} variant="contained" data-testid="contact-list-import-done">
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
              data-testid="contact-list-import-start"
            >
              {t('contactLists.import.start')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
};
