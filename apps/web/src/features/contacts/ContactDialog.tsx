import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { Box, Button, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { type TContact, type TContactBody, ZContactBody } from '@zelo/shared';
import { type UseFormReturn, useFieldArray } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { FormDialog, FormTextField } from '../../components/kit';

type TContactFormValues = {
  name: string;
  number: string;
  email: string;
  extraInfo: { id?: number; name: string; value: string }[];
  disableBot: boolean;
};
type TContactForm = UseFormReturn<TContactFormValues, unknown, TContactBody>;

const toFormValues = (contact: TContact | null): TContactFormValues => ({
  name: contact?.name ?? '',
  number: contact?.number ?? '',
  email: contact?.email ?? '',
  extraInfo: contact?.extraInfo?.map((e) => ({ id: e.id, name: e.name, value: e.value })) ?? [],
  disableBot: contact?.disableBot ?? false,
});

/** The contact's extra information: name and value pairs added and removed in place. */
const ExtraInfoFields = ({ form }: { form: TContactForm }) => {
  const { t } = useTranslation();
  const extra = useFieldArray({ control: form.control, name: 'extraInfo' });

  return (
    <>
      {extra.fields.map((field, index) => (
        <Stack
          key={field.id}
          direction="row"
          spacing={1}
          alignItems="flex-start"
          data-testid={`contact-extra-${index}`}
        >
          <FormTextField
            form={form}
            name={`extraInfo.${index}.name`}
            label={t('contacts.dialog.extraName')}
            size="small"
            testId={`contact-extra-name-${index}`}
          />
          <FormTextField
            form={form}
            name={`extraInfo.${index}.value`}
            label={t('contacts.dialog.extraValue')}
            size="small"
            testId={`contact-extra-value-${index}`}
          />
          <Tooltip title={t('contacts.dialog.removeExtra')}>
            <IconButton onClick={() => extra.remove(index)} aria-label={t('contacts.dialog.removeExtra')}>
              <DeleteOutline fontSize="small" />
            </IconButton>
          </Tooltip>
        </Stack>
      ))}
      <Box>
        <Button
          startIcon={<Add />}
          onClick={() => extra.append({ name: '', value: '' })}
          data-testid="contact-extra-add"
          size="small"
        >
          {t('contacts.dialog.addExtra')}
        </Button>
      </Box>
    </>
  );
};

type TContactDialogProps = {
  open: boolean;
  /** null adds a contact */
  contact: TContact | null;
  onSave: (id: number | null, body: TContactBody) => Promise<void>;
  onClose: () => void;
};

/** Add or edit a contact: name, number, e-mail and a list of extra information (spec 1 §2). */
export const ContactDialog = ({ open, contact, onSave, onClose }: TContactDialogProps) => {
  const { t } = useTranslation();

  return (
    <FormDialog<TContactFormValues, TContactBody>
      open={open}
      onClose={onClose}
      title={contact ? t('contacts.dialog.editTitle') : t('contacts.dialog.addTitle')}
      schema={ZContactBody}
      defaultValues={toFormValues(contact)}
      onSubmit={(body) => onSave(contact?.id ?? null, body)}
      successMessage={t('contacts.saved')}
      submitLabel={contact ? t('common.save') : t('contacts.dialog.add')}
      testId="contact"
    >
      {(form) => (
        <>
          <Typography variant="overline" color="text.secondary">
            {t('contacts.dialog.data')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
            <FormTextField
              form={form}
              name="name"
              label={t('contacts.dialog.name')}
              autoFocus
              required
              testId="contact-name"
            />
            <FormTextField
              form={form}
              name="number"
              label={t('contacts.dialog.number')}
              required
              placeholder="5511999998888"
              helperText={t('contacts.dialog.numberHint')}
              slotProps={{ htmlInput: { inputMode: 'tel' } }}
              testId="contact-number"
            />
          </Stack>
          <FormTextField
            form={form}
            name="email"
            label={t('contacts.dialog.email')}
            type="email"
            testId="contact-email"
          />
          <Typography variant="overline" color="text.secondary">
            {t('contacts.dialog.extraInfo')}
          </Typography>
          <ExtraInfoFields form={form} />
        </>
      )}
    </FormDialog>
  );
};
