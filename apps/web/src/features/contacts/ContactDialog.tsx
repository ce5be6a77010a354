import { zodResolver } from '@hookform/resolvers/zod';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { type TContact, type TContactBody, ZContactBody } from '@zelo/shared';
import { type FieldValues, type Resolver, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../api/http';
import { applyServerFieldErrors, fieldErrorText } from '../../components/form';
import { toast, toastError } from '../../components/toast';
import { CONTACTS_QUERY_KEY, searchOfContactsKey, type TContactsData, upsertContact } from './contactsCache';

type TContactFormValues = {
  name: string;
  number: string;
  email: string;
  extraInfo: { id?: number; name: string; value: string }[];
  disableBot: boolean;
};

const resolver = zodResolver(ZContactBody as z.ZodType<TContactBody, FieldValues>) as unknown as Resolver<
  TContactFormValues,
  unknown,
  TContactBody
>;

const toFormValues = (contact: TContact | null): TContactFormValues => ({
  name: contact?.name ?? '',
  number: contact?.number ?? '',
  email: contact?.email ?? '',
  extraInfo: contact?.extraInfo?.map((e) => ({ id: e.id, name: e.name, value: e.value })) ?? [],
  disableBot: contact?.disableBot ?? false,
});

type TContactFormProps = { contact: TContact | null; onClose: () => void; onSaved?: (contact: TContact) => void };

const ContactForm = ({ contact, onClose, onSaved }: TContactFormProps) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TContactFormValues, unknown, TContactBody>({ resolver, defaultValues: toFormValues(contact) });
  const extra = useFieldArray({ control, name: 'extraInfo' });

  const onSubmit = async (body: TContactBody) => {
    try {
      const saved = contact
        ? await api.put<TContact>(`/contacts/${contact.id}`, body)
        : await api.post<TContact>('/contacts', body);
      if (saved && typeof saved === 'object' && 'id' in saved) {
        for (const query of queryClient.getQueryCache().findAll({ queryKey: CONTACTS_QUERY_KEY })) {
          queryClient.setQueryData<TContactsData>(query.queryKey, (old) =>
            upsertContact(old, saved, searchOfContactsKey(query.queryKey)),
          );
        }
        onSaved?.(saved);
      }
      toast.success(t('contacts.saved'));
      onClose();
    } catch (err) {
      applyServerFieldErrors(err, ['name', 'number', 'email'], setError);
      toastError(err);
    }
  };

  return (
    <Box
      component="form"
      onSubmit={handleSubmit(onSubmit)}
      noValidate
      sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
    >
      <DialogTitle>{contact ? t('contacts.dialog.editTitle') : t('contacts.dialog.addTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Typography variant="overline" color="text.secondary">
            {t('contacts.dialog.data')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
            <TextField
              {...register('name')}
              label={t('contacts.dialog.name')}
              fullWidth
              autoFocus
              required
              error={Boolean(errors.name)}
              helperText={fieldErrorText(t, errors.name)}
              slotProps={{ htmlInput: { 'data-testid': 'contact-name' } }}
            />
            <TextField
              {...register('number')}
              label={t('contacts.dialog.number')}
              fullWidth
              required
              placeholder="5511999998888"
              error={Boolean(errors.number)}
              helperText={fieldErrorText(t, errors.number) ?? t('contacts.dialog.numberHint')}
              slotProps={{ htmlInput: { inputMode: 'tel', 'data-testid': 'contact-number' } }}
            />
          </Stack>
          <TextField
            {...register('email')}
            label={t('contacts.dialog.email')}
            type="email"
            fullWidth
            error={Boolean(errors.email)}
            helperText={fieldErrorText(t, errors.email)}
            slotProps={{ htmlInput: { 'data-testid': 'contact-email' } }}
          />
          <Typography variant="overline" color="text.secondary">
            {t('contacts.dialog.extraInfo')}
          </Typography>
          {extra.fields.map((field, index) => (
            <Stack
              key={field.id}
              direction="row"
              spacing={1}
              alignItems="flex-start"
              data-testid={`contact-extra-${index}`}
            >
              <TextField
                {...register(`extraInfo.${index}.name`)}
                label={t('contacts.dialog.extraName')}
                size="small"
                fullWidth
                error={Boolean(errors.extraInfo?.[index]?.name)}
                helperText={fieldErrorText(t, errors.extraInfo?.[index]?.name)}
                slotProps={{ htmlInput: { 'data-testid': `contact-extra-name-${index}` } }}
              />
              <TextField
                {...register(`extraInfo.${index}.value`)}
                label={t('contacts.dialog.extraValue')}
                size="small"
                fullWidth
                error={Boolean(errors.extraInfo?.[index]?.value)}
                helperText={fieldErrorText(t, errors.extraInfo?.[index]?.value)}
                slotProps={{ htmlInput: { 'data-testid': `contact-extra-value-${index}` } }}
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
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" data-testid="contact-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="contact-save">
          {contact ? t('common.save') : t('contacts.dialog.add')}
        </Button>
      </DialogActions>
    </Box>
  );
};

type TContactDialogProps = { open: boolean; contact: TContact | null; onClose: () => void };

/** Add or edit a contact: name, number, e-mail and a list of extra information (spec 1 §2). */
export const ContactDialog = ({ open, contact, onClose }: TContactDialogProps) => (
  <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth scroll="paper" data-testid="contact-dialog">
    {open && <ContactForm key={contact?.id ?? 'new'} contact={contact} onClose={onClose} />}
  </Dialog>
);
