import { AttachFile, DeleteOutline } from '@mui/icons-material';
import { Box, Button, FormControlLabel, Stack, Switch, TextField, Typography } from '@mui/material';
import {
  ANNOUNCEMENT_PRIORITIES,
  type TAnnouncement,
  type TAnnouncementBody,
  type TAnnouncementInput,
  ZAnnouncementBody,
} from '@zelo/shared';
import { type ChangeEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { FormDialog, FormTextField } from '../../components/kit';
import { announcementImageUrl, priorityKey } from './announcementLogic';
import './i18n';
import type { TImageChange } from './useAnnouncements';

type TAnnouncementDialogProps = {
  open: boolean;
  /** null adds one */
  announcement: TAnnouncement | null;
  onSave: (
    id: number | null,
    body: TAnnouncementBody,
    image: TImageChange,
    onStored: (record: TAnnouncement) => void,
  ) => Promise<unknown>;
  onClose: () => void;
};

/** spec 2 §5: png, jpg or jpeg only (the server reads the file's bytes and refuses anything else) */
const isAcceptedImage = (file: File) =>
  ['image/png', 'image/jpeg'].includes(file.type) || /\.(png|jpe?g)$/i.test(file.name);

const toValues = (a: TAnnouncement | null): TAnnouncementInput => ({
  title: a?.title ?? '',
  text: a?.text ?? '',
  priority: a?.priority ?? 3,
  status: a?.status ?? true,
});

/** Adds or edits an announcement: title, text, priority, active switch, and one image with its preview. */
export const AnnouncementDialog = ({ open, announcement, onSave, onClose }: TAnnouncementDialogProps) => {
  const { t } = useTranslation();
  const [image, setImage] = useState<File | null>(null);
  const [removed, setRemoved] = useState(false);
  const [imageError, setImageError] = useState(false);
  const storedId = useRef<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (open) {
      setImage(null);
      setRemoved(false);
      setImageError(false);
      storedId.current = announcement?.id ?? null;
    }
  }, [open, announcement]);

  const chosenUrl = useMemo(() => (image ? URL.createObjectURL(image) : null), [image]);
  useEffect(() => () => (chosenUrl ? URL.revokeObjectURL(chosenUrl) : undefined), [chosenUrl]);
  const storedUrl = announcement && !removed ? announcementImageUrl(announcement) : null;
  const previewUrl = chosenUrl ?? storedUrl;
  const previewName = image?.name ?? (storedUrl ? announcement?.mediaName : null);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) {
      return;
    }
    if (!isAcceptedImage(file)) {
      setImageError(true);
      return;
    }
    setImageError(false);
    setImage(file);
  };
  const removeImage = () => {
    setImage(null);
    setRemoved(true);
  };
  const imageChange = (): TImageChange => {
    if (image) {
      return { upload: image };
    }

    return removed && announcement?.mediaPath ? { remove: true } : null;
  };

  return (
    <FormDialog<TAnnouncementInput, TAnnouncementBody>
      open={open}
      onClose={onClose}
      title={announcement ? t('announcements.dialog.editTitle') : t('announcements.dialog.addTitle')}
      schema={ZAnnouncementBody}
      defaultValues={toValues(announcement)}
      onSubmit={(body) =>
        onSave(storedId.current, body, imageChange(), (record) => {
          storedId.current = record.id;
        })
      }
      successMessage={t('announcements.saved')}
      testId="announcement"
    >
      {(form) => (
        <>
          <FormTextField
            form={form}
            name="title"
            label={t('announcements.dialog.title')}
            required
            autoFocus
            testId="announcement-title"
          />
          <FormTextField
            form={form}
            name="text"
            label={t('announcements.dialog.text')}
            required
            multiline
            minRows={3}
            maxRows={10}
            testId="announcement-text"
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
            <Controller
              name="priority"
              control={form.control}
              render={({ field }) => (
                <TextField
                  select
                  label={t('announcements.dialog.priority')}
                  value={String(field.value ?? 3)}
                  onChange={(e) => field.onChange(Number(e.target.value))}
                  onBlur={field.onBlur}
                  sx={{ minWidth: 180 }}
                  slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'announcement-priority' } }}
                >
                  {ANNOUNCEMENT_PRIORITIES.map((p) => (
                    <option key={p} value={p}>
                      {t(`announcements.priorities.${priorityKey(p)}`)}
                    </option>
                  ))}
                </TextField>
              )}
            />
            <Controller
              name="status"
              control={form.control}
              render={({ field }) => (
                <FormControlLabel
                  label={t('announcements.dialog.active')}
                  control={
                    <Switch
                      checked={field.value === true}
                      onChange={(e) => field.onChange(e.target.checked)}
                      slotProps={{ input: { 'data-testid': 'announcement-status' } as object }}
                    />
                  }
                />
              )}
            />
          </Stack>
          <Box>
            <input
              ref={fileInput}
              type="file"
              accept=".png,.jpg,.jpeg,image/png,image/jpeg"
              hidden
              onChange={choose}
              data-testid="announcement-file"
            />
            {previewUrl && (
              <Box
                component="img"
                src={previewUrl}
                alt={previewName ?? ''}
                data-testid="announcement-preview"
                sx={{
                  display: 'block',
                  maxWidth: '100%',
                  maxHeight: 220,
                  objectFit: 'contain',
                  borderRadius: 1,
                  border: 1,
                  borderColor: 'divider',
                  mb: 1,
                }}
              />
            )}
            <Stack direction="row" spacing={1} alignItems="center" sx={{ flexWrap: 'wrap', rowGap: 1 }}>
              <Button
                variant="outlined"
                startIcon={<AttachFile />}
                onClick={() => fileInput.current?.click()}
                data-testid="announcement-attach"
              >
                {previewUrl ? t('announcements.dialog.replace') : t('announcements.dialog.attach')}
              </Button>
              {previewUrl && (
                <Button
                  color="error"
                  startIcon={<DeleteOutline />}
                  onClick={removeImage}
                  data-testid="announcement-remove-image"
                >
                  {t('announcements.dialog.removeImage')}
                </Button>
              )}
            </Stack>
            <Typography
              variant="caption"
              color={imageError ? 'error' : 'text.secondary'}
              sx={{ display: 'block', mt: 0.5, overflowWrap: 'anywhere' }}
              data-testid={imageError ? 'announcement-image-error' : undefined}
            >
              {imageError ? t('announcements.dialog.imageType') : (previewName ?? t('announcements.dialog.imageHint'))}
            </Typography>
          </Box>
        </>
      )}
    </FormDialog>
  );
};
