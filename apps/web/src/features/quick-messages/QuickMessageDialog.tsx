import { FormControlLabel, Switch } from '@mui/material';
import { type TQuickMessage, type TQuickMessageBody, ZQuickMessageBody } from '@zelo/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { FormDialog, FormTextField } from '../../components/kit';
import { MediaAttachment, shownAttachment, type TAttachmentChange } from '../../components/MediaAttachment';
import './i18n';
import { saveQuickMessage } from './useQuickMessagesList';

type TQuickMessageFormValues = { shortcode: string; message: string; geral: boolean };

type TQuickMessageDialogProps = {
  open: boolean;
  /** null adds one */
  quickMessage: TQuickMessage | null;
  /** each record the server answers (after the save, and after its file) */
  onSaved: (record: TQuickMessage) => void;
  onClose: () => void;
};

/**
 * Adds or edits a quick message (spec 2 §3, §5): shortcode (required), message, shared with the company or
 * personal, and one attached file, chosen or removed here and written when the dialog is saved. Mount it
 * afresh (a new `key`) for each opening.
 */
export const QuickMessageDialog = ({ open, quickMessage, onSaved, onClose }: TQuickMessageDialogProps) => {
  const { t } = useTranslation();
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
          <MediaAttachment
            record={quickMessage}
            change={attachment}
            onChange={setAttachment}
            i18nPrefix="quickMessages.dialog"
            testId="quick-message"
          />
        </>
      )}
    </FormDialog>
  );
};
