import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { Button, IconButton, Stack, TextField, Typography } from '@mui/material';
import { type TContact, type TContactBody, ZContactBody } from '@zelo/shared';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { errorText } from '../../components/toast';
import { applyFieldErrors } from '../../components/applyFieldErrors';
import { formResolver } from '../../components/formResolver';

type TContactValues = {
  name: string;
  number: string;
  email: string;
  extraInfo: { id?: number; name: string; value: string }[];
};

type ContactFormProps = {
  contact: Partial<TContact> | null;
  onSubmit: (body: TContactBody) => Promise<void>;
  onCancel: () => void;
  submitLabel: string;
};

const fieldError = (t: (key: string) => string, message?: string) =>
  message ? (message.includes(' ') ? message : t(`validation.${message}`)) : undefined;

/** Name, number, e-mail and extra info (spec 1 §5: name 2–50, number 8–50, e-mail optional and valid). */
export const ContactForm = ({ contact, onSubmit, onCancel, submitLabel }: ContactFormProps) => {
  const { t } = useTranslation();
  const form = useForm<TContactValues, unknown, TContactBody>({
    resolver: formResolver<TContactValues, TContactBody>(ZContactBody),
    defaultValues: {
      name: contact?.name ?? '',
      number: contact?.number ?? '',
      email: contact?.email ?? '',
      extraInfo: contact?.extraInfo?.map((e) => ({ id: e.id, name: e.name, value: e.value })) ?? [],
    },
  });
  const extra = useFieldArray({ control: form.control, name: 'extraInfo' });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (body) => {
    try {
      await onSubmit({ ...body, disableBot: contact?.disableBot ?? body.disableBot });
    } catch (err) {
      if (!applyFieldErrors<TContactValues>(err, ['name', 'number', 'email'], form.setError)) {
        form.setError('root', { message: errorText(err) });
      }
    }
  });

  return (
    <Stack component="form" spacing={1.5} onSubmit={(e) => void submit(e)} noValidate data-testid="contact-form">
      <TextField
        size="small"
        label={t('tickets.drawer.name')}
        {...form.register('name')}
        error={Boolean(errors.name)}
        helperText={fieldError(t, errors.name?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'contact-name' } }}
      />
      <TextField
        size="small"
        label={t('tickets.drawer.number')}
        {...form.register('number')}
        error={Boolean(errors.number)}
        helperText={fieldError(t, errors.number?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'contact-number' } }}
      />
      <TextField
        size="small"
        label={t('tickets.drawer.email')}
        {...form.register('email')}
        error={Boolean(errors.email)}
        helperText={fieldError(t, errors.email?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'contact-email' } }}
      />
      <Typography variant="subtitle2">{t('tickets.drawer.extraInfo')}</Typography>
      {extra.fields.map((field, index) => (
        <Stack key={field.id} direction="row" spacing={1} alignItems="flex-start">
          <TextField size="small" label={t('tickets.drawer.extraName')} {...form.register(`extraInfo.${index}.name`)} />
          <TextField
            size="small"
            label={t('tickets.drawer.extraValue')}
            {...form.register(`extraInfo.${index}.value`)}
          />
          <IconButton onClick={() => extra.remove(index)} aria-label={t('tickets.drawer.removeExtra')}>
            <DeleteIcon />
          </IconButton>
        </Stack>
      ))}
      <Button
        size="small"
        startIcon={<AddIcon />}
        onClick={() => extra.append({ name: '', value: '' })}
        sx={{ alignSelf: 'flex-start' }}
      >
        {t('tickets.drawer.addExtra')}
      </Button>
      {errors.root?.message ? (
        <Typography color="error" variant="body2">
          {errors.root.message}
        </Typography>
      ) : null}
      <Stack direction="row" spacing={1} justifyContent="flex-end">
        <Button onClick={onCancel} color="inherit">
          {t('tickets.drawer.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="contact-save">
          {submitLabel}
        </Button>
      </Stack>
    </Stack>
  );
};
