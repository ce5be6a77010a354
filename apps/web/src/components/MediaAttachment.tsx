import { AttachFile, DeleteOutline } from '@mui/icons-material';
import { Button, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useRef } from 'react';
import { useTranslation } from '../i18n/useTranslation';

/** what a dialog does with its record's one file when saved */
export type TAttachmentChange = { kind: 'keep' } | { kind: 'attach'; file: File } | { kind: 'remove' };

/** the stored file of a record (schedule, campaign, quick message) */
type TStoredMedia = { mediaPath?: string | null; mediaName?: string | null } | null | undefined;

/** The file a dialog shows: a newly chosen one, else the stored one unless it is being removed. */
export const shownAttachment = (record: TStoredMedia, change: TAttachmentChange) => {
  if (change.kind === 'attach') {
    return change.file.name;
  }
  if (change.kind === 'remove') {
    return null;
  }

  return record?.mediaPath ? (record.mediaName ?? '') : null;
};

type TMediaAttachmentProps = {
  /** the record being edited (its stored file), null when adding */
  record: TStoredMedia;
  change: TAttachmentChange;
  onChange: (change: TAttachmentChange) => void;
  /** texts `{prefix}.attach`, `.replace` and `.removeAttachment` */
  i18nPrefix: string;
  /** test ids `{testId}-file-input`, `-attachment`, `-remove-attachment`, `-attach` */
  testId: string;
  /** the file shown without its attach and remove buttons */
  readOnly?: boolean;
  accept?: string;
  /** a chosen file refused before it is kept (the caller says why) */
  refuse?: (file: File) => boolean;
};

/**
 * A record's one attached file in its dialog: the name of the file shown (chosen, or stored unless being
 * removed), a remove button, and attach / replace. The change is written when the dialog is saved.
 */
export const MediaAttachment = ({
  record,
  change,
  onChange,
  i18nPrefix: p,
  testId,
  readOnly = false,
  accept,
  refuse,
}: TMediaAttachmentProps) => {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const fileName = shownAttachment(record, change);

  return (
    <>
      <input
        ref={fileInput}
        type="file"
        hidden
        accept={accept}
        data-testid={`${testId}-file-input`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file && !refuse?.(file)) {
            onChange({ kind: 'attach', file });
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
              data-testid={`${testId}-attachment`}
            >
              {fileName}
            </Typography>
            {!readOnly ? (
              <Tooltip title={t(`${p}.removeAttachment`)}>
                <IconButton
                  size="small"
                  aria-label={t(`${p}.removeAttachment`)}
                  onClick={() => onChange({ kind: 'remove' })}
                  data-testid={`${testId}-remove-attachment`}
                >
                  <DeleteOutline fontSize="small" />
                </IconButton>
              </Tooltip>
            ) : null}
          </>
        ) : null}
        {!readOnly ? (
          <Button
            variant="outlined"
            size="small"
            startIcon={fileName === null ? <AttachFile /> : undefined}
            onClick={() => fileInput.current?.click()}
            data-testid={`${testId}-attach`}
            sx={{ flexShrink: 0, ml: fileName === null ? 0 : 'auto' }}
          >
            {fileName === null ? t(`${p}.attach`) : t(`${p}.replace`)}
          </Button>
        ) : null}
      </Stack>
    </>
  );
};
