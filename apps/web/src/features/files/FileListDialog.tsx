import { AttachFile, DeleteOutline } from '@mui/icons-material';
import { Box, Button, IconButton, LinearProgress, Link, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { type TFileList, ZFileListBody } from '@zelo/shared';
import { useRef, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { FormDialog, FormTextField } from '../../components/kit';
import './i18n';
import { saveFileList, type TFileRow } from './useFileLists';

const ZFileListForm = ZFileListBody.omit({ options: true });
type TFileListFormValues = { name: string; message: string };

let rowSeq = 0;
const newRow = (): TFileRow => {
  rowSeq += 1;
  return { key: `new-${rowSeq}`, name: '', file: null, stored: null };
};

/** the dialog's rows for a list: its stored options, or one empty row for a new list (as the ancestor's) */
export const initialRows = (fileList: TFileList | null): TFileRow[] =>
  fileList
    ? fileList.options.map((o) => ({ key: `option-${o.id}`, id: o.id, name: o.name, file: null, stored: o }))
    : [newRow()];

type TFileListDialogProps = {
  open: boolean;
  /** null adds one */
  fileList: TFileList | null;
  /** each state the server answers (after the save, and after each file) */
  onSaved: (record: TFileList) => void;
  onClose: () => void;
};

/**
 * Adds or edits a file list (spec 3 §2.2, the ancestor's FileModal): name (3 or more), message (required) and
 * its files, each a row with a name and a chosen file; rows are added and removed here, and on save the list is
 * written, then each chosen file uploaded for its row with its progress shown. Mount it afresh for each opening.
 */
export const FileListDialog = ({ open, fileList, onSaved, onClose }: TFileListDialogProps) => {
  const { t } = useTranslation();
  const [rows, setRows] = useState<TFileRow[]>(() => initialRows(fileList));
  const [progress, setProgress] = useState<Record<string, number>>({});
  // a save that created the list but failed on a file: the retry edits that list
  const [createdId, setCreatedId] = useState<number | null>(null);
  const inputs = useRef<Record<string, HTMLInputElement | null>>({});
  const isEdit = fileList !== null;

  const change = (key: string, patch: Partial<TFileRow>) =>
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const submit = async (values: TFileListFormValues) => {
    setProgress({});
    const saved = await saveFileList(
      createdId ?? fileList?.id ?? null,
      values,
      rows,
      (key, percent) => setProgress((p) => ({ ...p, [key]: percent })),
      (record) => {
        setCreatedId(record.id);
        // the rows now stand for stored options: a retry sends their ids and only the files not yet stored
        setRows((current) => {
          const byId = new Map(record.options.map((o) => [o.id, o]));
          const sentIds = new Set(current.flatMap((r) => (r.id ? [r.id] : [])));
          const fresh = record.options.filter((o) => !sentIds.has(o.id));
          let next = 0;
          return current.map((r) => {
            const id = r.id ?? fresh[next++]?.id;
            const stored = id !== undefined ? (byId.get(id) ?? null) : null;
            const uploaded = stored && r.stored?.path !== stored.path && stored.path !== '';
            return { ...r, id, stored, file: uploaded ? null : r.file };
          });
        });
        onSaved(record);
      },
    );
    onSaved(saved);
  };

  return (
    <FormDialog<TFileListFormValues, TFileListFormValues>
      open={open}
      onClose={onClose}
      title={isEdit ? t('files.dialog.editTitle') : t('files.dialog.addTitle')}
      schema={ZFileListForm}
      defaultValues={{ name: fileList?.name ?? '', message: fileList?.message ?? '' }}
      onSubmit={submit}
      successMessage={t('files.saved')}
      submitLabel={isEdit ? t('files.dialog.save') : t('files.dialog.add')}
      testId="file-list"
      maxWidth="md"
    >
      {(form) => (
        <>
          <FormTextField
            form={form}
            name="name"
            label={t('files.dialog.name')}
            required
            autoFocus
            testId="file-list-name"
          />
          <FormTextField
            form={form}
            name="message"
            label={t('files.dialog.message')}
            helperText={t('files.dialog.messageHint')}
            required
            multiline
            minRows={4}
            maxRows={10}
            testId="file-list-message"
          />
          <Box>
            <Typography variant="subtitle1">{t('files.dialog.files')}</Typography>
            <Typography variant="caption" color="text.secondary">
              {t('files.dialog.limits')}
            </Typography>
          </Box>
          {rows.map((row, i) => {
            const percent = progress[row.key];
            return (
              <Stack
                key={row.key}
                spacing={1}
                data-testid={`file-row-${i}`}
                sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
              >
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
                  <TextField
                    label={t('files.dialog.fileName')}
                    value={row.name}
                    onChange={(e) => change(row.key, { name: e.target.value })}
                    size="small"
                    fullWidth
                    slotProps={{ htmlInput: { maxLength: 255, 'data-testid': `file-row-name-${i}` } }}
                  />
                  <Stack direction="row" spacing={1} alignItems="center" sx={{ flexShrink: 0 }}>
                    <input
                      ref={(el) => {
                        inputs.current[row.key] = el;
                      }}
                      type="file"
                      hidden
                      data-testid={`file-row-input-${i}`}
                      onChange={(e) => {
                        const file = e.target.files?.[0] ?? null;
                        e.target.value = '';
                        if (file) {
                          change(row.key, { file, name: row.name || file.name });
                        }
                      }}
                    />
                    <Button
                      variant="outlined"
                      size="small"
                      startIcon={<AttachFile />}
                      onClick={() => inputs.current[row.key]?.click()}
                      data-testid={`file-row-choose-${i}`}
                      sx={{ whiteSpace: 'nowrap' }}
                    >
                      {row.file || row.stored?.path ? t('files.dialog.replace') : t('files.dialog.choose')}
                    </Button>
                    <Tooltip title={t('files.dialog.remove')}>
                      <IconButton
                        aria-label={t('files.dialog.remove')}
                        onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}
                        data-testid={`file-row-remove-${i}`}
                      >
                        <DeleteOutline />
                      </IconButton>
                    </Tooltip>
                  </Stack>
                </Stack>
                <Typography variant="body2" color="text.secondary" noWrap data-testid={`file-row-file-${i}`}>
                  {row.file ? (
                    row.file.name
                  ) : row.stored?.url ? (
                    <Link href={row.stored.url} target="_blank" rel="noopener noreferrer">
                      {t('files.dialog.stored', { type: row.stored.mediaType })}
                    </Link>
                  ) : (
                    t('files.dialog.noFile')
                  )}
                </Typography>
                {percent !== undefined && row.file && (
                  <Box data-testid={`file-row-progress-${i}`}>
                    <LinearProgress variant="determinate" value={percent} />
                    <Typography variant="caption" color="text.secondary">
                      {t('files.dialog.uploading', { percent })}
                    </Typography>
                  </Box>
                )}
              </Stack>
            );
          })}
          <Button
            variant="outlined"
            onClick={() => setRows((current) => [...current, newRow()])}
            data-testid="file-list-add-row"
          >
            {t('files.dialog.addFile')}
          </Button>
        </>
      )}
    </FormDialog>
  );
};
