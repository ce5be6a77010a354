import { AttachFile, DeleteOutline } from '@mui/icons-material';
import { Button, FormControlLabel, IconButton, Stack, Switch, Tooltip, Typography } from '@mui/material';
import { type TQuickMessage, type TQuickMessageBody, ZQuickMessageBody } from '@zelo/shared';
import { useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog, FormTextField } from '../../components/kit';
import './i18n';
import { saveQuickMessage, type TAttachmentChange } from './useQuickMessagesList';

type TQuickMessageFormValues = { shortcode: string; message: string; geral: boolean };

type TQuickMessageDialogProps = {
  open: boolean;
  /** null adds one */
  quickMessage: TQuickMessage | null;
  /** each record the server answers (after the save, and after its file) */
  onSaved: (record: TQuickMessage) => void;
  onClose: () => void;
};

/** The file the dialog shows: a newly chosen one, else the stored one unless it is being removed. */
export const shownAttachment = (quickMessage: TQuickMessage | null, change: TAttachmentChange) => {
  if (change.kind === 'attach') {
    return change.file.name;
  }
  if (change.kind === 'remove') {
    return null;
  }

  return quickMessage?.mediaPath ? (quickMessage.mediaName ?? '') : null;
};

/**
 * Adds or edits a quick message (spec 2 §3, §5): shortcode (required), message, shared with the company or
 * personal, and one attached file, chosen or removed here and written when the dialog is saved. Mount it
 * afresh (a new `key`) for each opening.
 */
export const QuickMessageDialog = ({ open, quickMessage, onSaved, onClose }: TQuickMessageDialogProps) => {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const [attachment, setAttachment] = useState<TAttachmentChange>({ kind: 'keep' });
  // a save that created the record but failed on its file: the retry edits that record
  const [createdId, setCreatedId] = useState<number | null>(null);
  const isEdit = quickMessage !== null;
  const fileName = shownAttachment(quickMessage, attachment);

  const submit = async (body: TQuickMessageBody) => {
    const saved = await saveQuickMessage(
      createdId ?? quickMessage?.id ?? null,
      body,
      attachment,
      Boolean(quickMessage?.mediaPath),
      (record) => {
        setCreatedId(record.id);
        onSaved(record);
      },
    );
    onSaved(saved);
  };

  return (
    <FormDialog<TQuickMessageFormValues, TQuickMessageBody>
      open={open}
      onClose={onClose}
      title={isEdit ? t('quickMessages.dialog.editTitle') : t('quickMessages.dialog.addTitle')}
      schema={ZQuickMessageBody}
      defaultValues={{
        shortcode: quickMessage?.shortcode ?? '',
        message: quickMessage?.message ?? '',
        geral: quickMessage?.geral ?? true,
      }}
      onSubmit={submit}
      successMessage={t('quickMessages.saved')}
      submitLabel={isEdit ? t('quickMessages.dialog.save') : t('quickMessages.dialog.add')}
      testId="quick-message"
      maxWidth="sm"
    >
      {(form) => (
        <>
          <FormTextField
            form={form}
            name="shortcode"
            label={t('quickMessages.dialog.shortcode')}
            helperText={t('quickMessages.dialog.shortcodeHint')}
            required
            autoFocus
            testId="quick-message-shortcode"
          />
          <FormTextField
            form={form}
            name="message"
            label={t('quickMessages.dialog.message')}
            helperText={fileName !== null ? t('quickMessages.dialog.messageHint') : undefined}
            multiline
            minRows={4}
            maxRows={12}
            testId="quick-message-message"
          />
          <Controller
            name="geral"
            control={form.control}
            render={({ field }) => (
              <FormControlLabel
                label={t('quickMessages.dialog.geral')}
                control={
                  <Switch
                    checked={Boolean(field.value)}
                    onChange={(e) => field.onChange(e.target.checked)}
                    slotProps={{ input: { 'data-testid': 'quick-message-geral' } as object }}
                  />
                }
              />
            )}
          />
          <input
            ref={fileInput}
            type="file"
            hidden
            data-testid="quick-message-file-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) {
                setAttachment({ kind: 'attach', file });
              }
            }}
          />
          <Stack direction="row" spacing={1} alignItems="center" sx={{ minWidth: 0 }}>
            {fileName !== null ? (
              <>
                <AttachFile fontSize="small" color="action" />
                <Typography
                  variant="body2"
                  noWrap
                  sx={{ flex: 1, minWidth: 0 }}
                  title={fileName}
                  data-testid="quick-message-attachment"
                >
                  {fileName}
                </Typography>
                <Tooltip title={t('quickMessages.dialog.removeAttachment')}>
                  <IconButton
                    size="small"
                    aria-label={t('quickMessages.dialog.removeAttachment')}
                    onClick={() => setAttachment({ kind: 'remove' })}
                    data-testid="quick-message-remove-attachment"
                  >
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </Tooltip>
              </>
            ) : null}
            <Button
              variant="outlined"
              size="small"
              startIcon={fileName === null ? <AttachFile /> : undefined}
              onClick={() => fileInput.current?.click()}
              data-testid="quick-message-attach"
              sx={{ flexShrink: 0, ml: fileName === null ? 0 : 'auto' }}
            >
              {fileName === null ? t('quickMessages.dialog.attach') : t('quickMessages.dialog.replace')}
            </Button>
          </Stack>
        </>
      )}
    </FormDialog>
  );
};
