import { Box, Button, Grid, TextField } from '@mui/material';
import { type THelp, type THelpBody, ZHelpBody } from '@zelo/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast, toastError } from '../../../components/toast';
import { applyFieldErrors } from '../../../components/applyFieldErrors';
import { formResolver } from '../../../components/formResolver';
import { useSaveHelp } from './useHelpsAdmin';

type THelpFormValues = { title: string; description: string; video: string };

type THelpFormProps = {
  /** the help being edited; null adds one */
  help: THelp | null;
  /** after a save, cancel or clear: the parent remounts the form empty */
  onDone: () => void;
};

const FIELDS = ['title', 'description', 'video'] as const;

export const HelpForm = ({ help, onDone }: THelpFormProps) => {
  const { t } = useTranslation();
  const saveHelp = useSaveHelp();

  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<THelpFormValues, unknown, THelpBody>({
    resolver: formResolver(ZHelpBody),
    defaultValues: {
      title: help?.title ?? '',
      description: help?.description ?? '',
      video: help?.video ?? '',
    },
  });

  const onSubmit = async (body: THelpBody) => {
    try {
      await saveHelp.mutateAsync({ id: help?.id ?? null, body });
      toast.success(t('settings.helps.saved'));
      onDone();
    } catch (err) {
      applyFieldErrors(err, FIELDS, setError);
      toastError(err);
    }
  };

  const errorText = (name: (typeof FIELDS)[number]) => {
    const message = errors[name]?.message;

    return message ? t(`validation.${message}`) : undefined;
  };

  return (
    <Box component="form" onSubmit={handleSubmit(onSubmit)} noValidate>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            {...register('title')}
            label={t('settings.helps.titleField')}
            size="small"
            fullWidth
            error={Boolean(errors.title)}
            helperText={errorText('title')}
            slotProps={{ htmlInput: { 'data-testid': 'help-title' } }}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            {...register('video')}
            label={t('settings.helps.video')}
            size="small"
            fullWidth
            error={Boolean(errors.video)}
            helperText={errorText('video') ?? t('settings.helps.videoHint')}
            slotProps={{ htmlInput: { 'data-testid': 'help-video' } }}
          />
        </Grid>
        <Grid size={12}>
          <TextField
            {...register('description')}
            label={t('settings.helps.description')}
            size="small"
            fullWidth
            multiline
            minRows={2}
            maxRows={6}
            error={Boolean(errors.description)}
            helperText={errorText('description')}
            slotProps={{ htmlInput: { 'data-testid': 'help-description' } }}
          />
        </Grid>
        <Grid size={12} sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
          <Button color="inherit" onClick={onDone} data-testid="help-clear">
            {help ? t('settings.actions.cancel') : t('settings.actions.clear')}
          </Button>
          <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="help-save">
            {t('settings.actions.save')}
          </Button>
        </Grid>
      </Grid>
    </Box>
  );
};
