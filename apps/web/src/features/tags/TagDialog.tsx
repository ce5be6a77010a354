import { Box, FormControlLabel, Stack, Switch } from '@mui/material';
import { type TTag, type TTagUpdateBody, ZTagBody, ZTagUpdateBody } from '@zelo/shared';
import { Controller } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { useAuth } from '../../app/auth/AuthContext';
import { FormDialog, FormTextField } from '../../components/kit';
import './i18n';
import { type TTagFormValues, toTagFormValues, toTagRequest } from './tagForm';

type TTagDialogProps = {
  open: boolean;
  /** null adds a tag */
  tag: TTag | null;
  onSave: (id: number | null, body: TTagUpdateBody) => Promise<void>;
  onClose: () => void;
};

const HEX = /^#[0-9a-f]{6}$/i;

/** Adds or edits a tag: name, colour, and the kanban switch for admins only (spec 2 §5, §6). */
export const TagDialog = ({ open, tag, onSave, onClose }: TTagDialogProps) => {
  const { t } = useTranslation();
  const { isAdmin } = useAuth();
  const isEdit = tag !== null;

  return (
    <FormDialog<TTagFormValues, TTagUpdateBody>
      open={open}
      onClose={onClose}
      title={isEdit ? t('tags.dialog.editTitle') : t('tags.dialog.addTitle')}
      schema={isEdit ? ZTagUpdateBody : ZTagBody}
      defaultValues={toTagFormValues(tag)}
      onSubmit={(body) => onSave(tag?.id ?? null, toTagRequest(body, isAdmin))}
      successMessage={t('tags.saved')}
      submitLabel={isEdit ? t('tags.dialog.save') : t('tags.dialog.add')}
      maxWidth="xs"
      testId="tag"
    >
      {(form) => {
        const color = form.watch('color');

        return (
          <>
            <FormTextField form={form} name="name" label={t('tags.dialog.name')} autoFocus required testId="tag-name" />
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              {/* beside the field, not inside it: the form binds the first input of a registered field */}
              <Box
                component="input"
                type="color"
                aria-label={t('tags.dialog.pickColor')}
                data-testid="tag-color-picker"
                value={HEX.test(color) ? color : '#000000'}
                onChange={(e) =>
                  form.setValue('color', e.currentTarget.value.toUpperCase(), {
                    shouldDirty: true,
                    shouldValidate: true,
                  })
                }
                sx={{ width: 40, height: 40, p: 0, border: 0, bgcolor: 'transparent', cursor: 'pointer', flex: 'none' }}
              />
              <FormTextField form={form} name="color" label={t('tags.dialog.color')} testId="tag-color" />
            </Stack>
            {isAdmin && (
              <Controller
                control={form.control}
                name="kanban"
                render={({ field }) => (
                  <FormControlLabel
                    control={
                      <Switch
                        checked={Boolean(field.value)}
                        onChange={(e) => field.onChange(e.target.checked)}
                        slotProps={{ input: { 'data-testid': 'tag-kanban' } as object }}
                      />
                    }
                    label={t('tags.dialog.kanban')}
                    title={t('tags.dialog.kanbanHint')}
                  />
                )}
              />
            )}
          </>
        );
      }}
    </FormDialog>
  );
};
