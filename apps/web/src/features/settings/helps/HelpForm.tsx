import { Box, Grid } from '@mui/material';
import { type THelp, type THelpBody, ZHelpBody } from '@zelo/shared';
import { useTranslation } from '../../../i18n/useTranslation';
import { FormTextField, useSchemaForm } from '../../../components/kit';
import { InlineFormButtons } from '../InlineFormButtons';
import { useSaveHelp } from './useHelpsAdmin';

type THelpFormValues = { title: string; description: string; video: string };

type THelpFormProps = {
  /** the help being edited; null adds one */
  help: THelp | null;
  /** after a save, cancel or clear: the parent remounts the form empty */
  onDone: () => void;
};

export const HelpForm = ({ help, onDone }: THelpFormProps) => {
  const { t } = useTranslation();
  const saveHelp = useSaveHelp();
  const { form, submit } = useSchemaForm<THelpFormValues, THelpBody>({
    schema: ZHelpBody,
    defaultValues: { title: help?.title ?? '', description: help?.description ?? '', video: help?.video ?? '' },
    onSubmit: (body) => saveHelp.mutateAsync({ id: help?.id ?? null, body }),
    successMessage: t('settings.helps.saved'),
    onDone,
  });

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <FormTextField
            form={form}
            name="title"
            label={t('settings.helps.titleField')}
            size="small"
            testId="help-title"
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <FormTextField
            form={form}
            name="video"
            label={t('settings.helps.video')}
            size="small"
            helperText={t('settings.helps.videoHint')}
            testId="help-video"
          />
        </Grid>
        <Grid size={12}>
          <FormTextField
            form={form}
            name="description"
            label={t('settings.helps.description')}
            size="small"
            multiline
            minRows={2}
            maxRows={6}
            testId="help-description"
          />
        </Grid>
        <InlineFormButtons
          isEdit={help !== null}
          onDone={onDone}
          isSubmitting={form.formState.isSubmitting}
          testId="help"
        />
      </Grid>
    </Box>
  );
};
