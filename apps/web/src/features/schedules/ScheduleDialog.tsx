import { DeleteOutline } from '@mui/icons-material';
import { Alert, Autocomplete, Button, Chip, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { type TContact, type TSchedule, type TScheduleBody, ZScheduleBody } from '@zelo/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { fieldErrorText } from '../../components/form';
import { FormDialog, FormTextField } from '../../components/kit';
import { MediaAttachment } from '../../components/MediaAttachment';
import { toast, toastError } from '../../components/toast';
import { useDebounce } from '../../hooks/useDebounce';
import { asList, ticketsApi } from '../tickets/ticketsApi';
import { useWhatsappOptions } from '../tickets/useCatalogue';
import './i18n';
import {
  defaultSendAt,
  dialogMode,
  isPastSendAt,
  isScheduleImage,
  localInputToIso,
  reasonKey,
  SCHEDULE_IMAGE_ACCEPT,
  SCHEDULE_VARIABLES,
  STATUS_COLOR,
  schedulesApi,
  type TImageChange,
  toLocalInput,
} from './scheduleLogic';

type TContactRef = Pick<TContact, 'id' | 'name' | 'number'>;
type TFormValues = { body: string; contactId: number | ''; sendAt: string; whatsappId: number | '' };

export type TScheduleDialogProps = {
  open: boolean;
  /** null schedules a new message */
  schedule: TSchedule | null;
  /** a new one's contact (the `?contactId=` link, the ticket's menu) */
  initialContact?: TContactRef | null;
  /** a new one's time (a slot clicked in the calendar); else now + 1 h */
  initialSendAt?: Date | null;
  /** the ticket it is scheduled from */
  ticketId?: number | null;
  onSaved?: (schedule: TSchedule) => void;
  onDeleted?: (id: number) => void;
  onClose: () => void;
};

const contactLabel = (c: TContactRef) => (c.number ? `${c.name} - ${c.number}` : c.name);

/**
 * The schedule dialog (spec 1 §2/§5, spec 2): contact (autocomplete from 3 letters), message of at least 5
 * characters with the variables it may use, send time (now + 1 h by default), connection (none = the contact's
 * last, else the default) and a png/jpg/jpeg image. Titled "Erro de Envio" with the reason for a failed one; no
 * save once sent. Mount it afresh (a new `key`) for each opening.
 */
export const ScheduleDialog = ({
  open,
  schedule,
  initialContact = null,
  initialSendAt = null,
  ticketId = null,
  onSaved,
  onDeleted,
  onClose,
}: TScheduleDialogProps) => {
  const { t } = useTranslation();
  const mode = dialogMode(schedule);
  const readOnly = mode === 'sent' || schedule?.status === 'AGENDADA';
  const [contact, setContact] = useState<TContactRef | null>(schedule?.contact ?? initialContact);
  const [term, setTerm] = useState(contact ? contactLabel(contact) : '');
  const search = useDebounce(term.trim(), 500);
  const contacts = useQuery({
    queryKey: ['schedules', 'contacts', search],
    queryFn: async () => asList<TContact>(await ticketsApi.contacts(search)),
    enabled: open && !readOnly && search.length >= 3 && search !== (contact ? contactLabel(contact) : ''),
  });
  const whatsapps = useWhatsappOptions(open);
  const [image, setImage] = useState<TImageChange>({ kind: 'keep' });
  // a save that created the schedule but failed on its image: the retry edits that schedule
  const [createdId, setCreatedId] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  // the past send time the user was warned about: saving it again sends it at once
  const [pastConfirmed, setPastConfirmed] = useState<string | null>(null);
  const reason = schedule?.status === 'ERRO' ? reasonKey(schedule.errorMessage) : null;

  const submit = async (values: TScheduleBody) => {
    if (isPastSendAt(values.sendAt) && pastConfirmed !== values.sendAt) {
      setPastConfirmed(values.sendAt);
      throw new Error(t('schedules.dialog.pastConfirm'));
    }
    const id = createdId ?? schedule?.id ?? null;
    const body = {
      body: values.body,
      contactId: values.contactId,
      sendAt: localInputToIso(values.sendAt),
      whatsappId: values.whatsappId ?? null,
      ...(id === null && ticketId ? { ticketId } : {}),
    };
    const saved = await schedulesApi.save(id, body, image, Boolean(schedule?.mediaPath), (created) => {
      setCreatedId(created.id);
      onSaved?.(created);
    });
    onSaved?.(saved);
  };

  const remove = async () => {
    if (!schedule) {
      return;
    }
    try {
      await schedulesApi.remove(schedule.id);
      toast.success(t('schedules.deleted'));
      onDeleted?.(schedule.id);
      onClose();
    } catch (err) {
      toastError(err);
    }
  };

  const title = {
    add: t('schedules.dialog.addTitle'),
    edit: t('schedules.dialog.editTitle'),
    error: t('schedules.dialog.errorTitle'),
    sent: t('schedules.dialog.sentTitle'),
  }[mode];

  return (
    <>
      <FormDialog<TFormValues, TScheduleBody>
        open={open}
        onClose={onClose}
        title={title}
        schema={ZScheduleBody}
        defaultValues={{
          body: schedule?.body ?? '',
          contactId: contact?.id ?? '',
          sendAt: schedule
            ? toLocalInput(new Date(schedule.sendAt))
            : initialSendAt
              ? toLocalInput(initialSendAt)
              : defaultSendAt(),
          whatsappId: schedule?.whatsappId ?? '',
        }}
        onSubmit={submit}
        successMessage={t('schedules.saved')}
        submitLabel={schedule ? t('schedules.dialog.save') : t('schedules.dialog.add')}
        testId="schedule"
        readOnly={readOnly}
        maxWidth="sm"
      >
        {(form) => (
          <>
            {schedule ? (
              <Stack direction="row" spacing={1} alignItems="center" sx={{ flexWrap: 'wrap', rowGap: 1 }}>
                <Chip
                  size="small"
                  color={STATUS_COLOR[schedule.status]}
                  label={t(`schedules.status.${schedule.status}`)}
                  data-testid="schedule-status"
                />
                {schedule.sentAt ? (
                  <Typography variant="body2" color="text.secondary" data-testid="schedule-sent-at">
                    {t('schedules.dialog.sentAt', { when: new Date(schedule.sentAt).toLocaleString() })}
                  </Typography>
                ) : null}
                <Stack sx={{ flex: 1 }} />
                {!readOnly ? (
                  <Button
                    size="small"
                    color="error"
                    startIcon={<DeleteOutline />}
                    onClick={() => setConfirming(true)}
                    data-testid="schedule-delete"
                  >
                    {t('schedules.dialog.delete')}
                  </Button>
                ) : null}
              </Stack>
            ) : null}
            {schedule?.status === 'ERRO' ? (
              <Alert severity="error" data-testid="schedule-error">
                {reason ? t(reason, { defaultValue: schedule.errorMessage ?? '' }) : schedule.errorMessage}
              </Alert>
            ) : null}
            <Controller
              name="contactId"
              control={form.control}
              render={({ field, fieldState }) => (
                <Autocomplete<TContactRef>
                  options={contacts.data ?? (contact ? [contact] : [])}
                  value={contact}
                  disabled={readOnly}
                  onChange={(_e, value) => {
                    setContact(value);
                    setTerm(value ? contactLabel(value) : '');
                    field.onChange(value?.id ?? '');
                  }}
                  inputValue={term}
                  onInputChange={(_e, value, why) => {
                    if (why !== 'reset' && why !== 'blur') {
                      setTerm(value);
                    }
                  }}
                  filterOptions={(list) => list}
                  getOptionLabel={contactLabel}
                  isOptionEqualToValue={(a, b) => a.id === b.id}
                  noOptionsText={t('schedules.dialog.noContacts')}
                  loading={contacts.isFetching}
                  renderOption={(props, option) => {
                    const { key: _key, ...rest } = props as typeof props & { key: string };

                    return (
                      <li key={option.id} {...rest} data-testid={`schedule-contact-${option.id}`}>
                        {contactLabel(option)}
                      </li>
                    );
                  }}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      required
                      label={t('schedules.dialog.contact')}
                      error={Boolean(fieldState.error)}
                      helperText={
                        fieldErrorText(t, fieldState.error) ?? (contact ? undefined : t('schedules.dialog.contactHint'))
                      }
                      inputProps={{ ...params.inputProps, 'data-testid': 'schedule-contact' }}
                    />
                  )}
                />
              )}
            />
            <FormTextField
              form={form}
              name="body"
              label={t('schedules.dialog.body')}
              helperText={t('schedules.dialog.bodyHint', { vars: SCHEDULE_VARIABLES })}
              required
              multiline
              minRows={3}
              maxRows={10}
              disabled={readOnly}
              testId="schedule-body"
            />
            <FormTextField
              form={form}
              name="sendAt"
              type="datetime-local"
              label={t('schedules.dialog.sendAt')}
              required
              disabled={readOnly}
              helperText={
                !readOnly && isPastSendAt(String(form.watch('sendAt') ?? ''))
                  ? t('schedules.dialog.pastWarning')
                  : undefined
              }
              // seconds may be typed (a message a few seconds ahead); the picker shows minutes
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
              testId="schedule-send-at"
            />
            <Controller
              name="whatsappId"
              control={form.control}
              render={({ field }) => (
                <TextField
                  select
                  label={t('schedules.dialog.connection')}
                  value={field.value ?? ''}
                  onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
                  disabled={readOnly}
                  slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                  data-testid="schedule-connection"
                >
                  <MenuItem value="">
                    <em>{t('schedules.dialog.connectionDefault')}</em>
                  </MenuItem>
                  {(whatsapps.data ?? []).map((w) => (
                    <MenuItem key={w.id} value={w.id}>
                      {w.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <MediaAttachment
              record={schedule}
              change={image}
              onChange={setImage}
              i18nPrefix="schedules.dialog"
              testId="schedule"
              readOnly={readOnly}
              accept={SCHEDULE_IMAGE_ACCEPT}
              refuse={(file) => {
                if (isScheduleImage(file.name)) {
                  return false;
                }
                toast.error(t('schedules.dialog.onlyImages'));
                return true;
              }}
            />
          </>
        )}
      </FormDialog>
      <ConfirmDialog
        open={confirming}
        title={t('schedules.deleteTitle')}
        onClose={() => setConfirming(false)}
        onConfirm={() => void remove()}
      >
        {t('schedules.deleteMessage')}
      </ConfirmDialog>
    </>
  );
};
