import {
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControl,
  FormHelperText,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
} from '@mui/material';
import type { TContact, TContactBody, TTicket } from '@zelo/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { toast, toastError } from '../../components/toast';
import { useDebounce } from '../../hooks/useDebounce';
import { ContactForm } from './ContactForm';
import { CONTACT_SEARCH_MIN, heldTicketOf, type THeld } from './dialogLogic';
import { asList, ticketsApi } from './ticketsApi';
import { useQueueOptions, useWhatsappOptions } from './useCatalogue';
import { useViewer } from './useViewer';

type TOption = { kind: 'contact'; contact: TContact } | { kind: 'create'; name: string };

const contactLabel = (contact: TContact) => `${contact.name} - ${contact.number}`;

type NewTicketDialogProps = { open: boolean; onClose: () => void; initialContact?: TContact | null };

/** Contact (autocomplete, or create one from the typed text), queue (required for non-admins) and connection. */
/**
 * The contact field's suggestions: the contacts found and "add <term>"; while the field shows the contact
 * already chosen (or just added) only that one, and `suggesting` is off — no list stays open behind it.
 */
export const contactOptions = (found: TContact[], term: string, chosen: TContact | null) => {
  if (chosen && term === contactLabel(chosen)) {
    return { suggesting: false, options: [{ kind: 'contact' as const, contact: chosen }] as TOption[] };
  }
  const options: TOption[] = [
    ...found.map((c) => ({ kind: 'contact' as const, contact: c })),
    ...(term.trim().length >= CONTACT_SEARCH_MIN ? [{ kind: 'create' as const, name: term.trim() }] : []),
  ];

  return { suggesting: options.length > 0, options };
};

export const NewTicketDialog = ({ open, onClose, initialContact = null }: NewTicketDialogProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const viewer = useViewer();
  const queues = useQueueOptions();
  const whatsapps = useWhatsappOptions(open);
  const [term, setTerm] = useState('');
  const search = useDebounce(term.trim(), 500);
  const [contact, setContact] = useState<TContact | null>(initialContact);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [creating, setCreating] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [held, setHeld] = useState<THeld | null>(null);

  // a fresh form each time the dialog opens (not when the lists behind it refresh)
  useEffect(() => {
    if (open) {
      setTerm('');
      setContact(initialContact);
      setTouched(false);
      setHeld(null);
      setQueueId('');
    }
  }, [open, initialContact]);
  // a user with exactly one queue has it preselected, once the list is there
  const onlyQueueId = queues.data.length === 1 ? queues.data[0].id : null;
  useEffect(() => {
    if (open && onlyQueueId !== null) {
      setQueueId((current) => (current === '' ? onlyQueueId : current));
    }
  }, [open, onlyQueueId]);

  useEffect(() => {
    if (open && whatsappId === '' && whatsapps.data?.length) {
      const preferred =
        whatsapps.data.find((w) => w.id === viewer.whatsappId) ?? whatsapps.data.find((w) => w.isDefault) ?? null;
      if (preferred) {
        setWhatsappId(preferred.id);
      }
    }
  }, [open, whatsapps.data, whatsappId, viewer.whatsappId]);

  const contacts = useQuery({
    queryKey: ['tickets', 'contact-search', search],
    enabled: open && search.length >= CONTACT_SEARCH_MIN,
    queryFn: async () => asList<TContact>(await ticketsApi.contacts(search), 'contacts'),
  });

  const { options, suggesting } = contactOptions(contacts.data ?? [], term, contact);
  // the list is open only while the user looks for a contact; choosing or adding one closes it
  const [listOpen, setListOpen] = useState(false);

  const queueRequired = !viewer.isAdmin;
  const queueMissing = queueRequired && queueId === '';

  const submit = async () => {
    setTouched(true);
    if (!contact || queueMissing) {
      return;
    }
    setSaving(true);
    try {
      const ticket = await ticketsApi.create({
        contactId: contact.id,
        queueId: queueId === '' ? null : queueId,
        whatsappId: whatsappId === '' ? null : whatsappId,
        userId: viewer.id,
      });
      onClose();
      if (ticket && typeof ticket === 'object' && 'uuid' in ticket) {
        navigate(`/tickets/${(ticket as TTicket).uuid}`);
      }
    } catch (err) {
      const other = heldTicketOf(err);
      if (!other) {
        toastError(err);

        return;
      }
      // the user's own ticket opens; another user's is named with its queue
      const found = other.id ? await ticketsApi.byId(other.id).catch(() => null) : null;
      const ownerId = found?.userId ?? other.userId ?? null;
      const uuid = found?.uuid ?? other.uuid;
      if (ownerId === viewer.id && uuid) {
        onClose();
        navigate(`/tickets/${uuid}`);
      } else if (other.userName) {
        setHeld(other);
      } else {
        toastError(err);
      }
    } finally {
      setSaving(false);
    }
  };

  const createContact = async (body: TContactBody) => {
    const saved = await ticketsApi.saveContact(null, body);
    toast.success(t('tickets.create.contactSaved'));
    setContact(saved);
    setTerm(contactLabel(saved));
    setListOpen(false);
    setCreating(null);
  };

  return (
    <>
      <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth data-testid="new-ticket-dialog">
        <DialogTitle>{t('tickets.create.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Autocomplete<TOption>
              size="small"
              options={options}
              value={contact ? { kind: 'contact', contact } : null}
              open={listOpen && suggesting}
              onOpen={() => setListOpen(true)}
              onClose={() => setListOpen(false)}
              onChange={(_e, value) => {
                setListOpen(false);
                if (value?.kind === 'create') {
                  setCreating(value.name);
                } else {
                  setContact(value?.contact ?? null);
                  setTerm(value?.contact ? contactLabel(value.contact) : '');
                }
              }}
              inputValue={term}
              onInputChange={(_e, value, reason) => {
                // the label of a chosen contact is set above; leaving the field keeps what it shows
                if (reason !== 'reset' && reason !== 'blur') {
                  setTerm(value);
                }
              }}
              filterOptions={(list) => list}
              getOptionLabel={(o) => (o.kind === 'contact' ? contactLabel(o.contact) : o.name)}
              isOptionEqualToValue={(a, b) =>
                a.kind === 'contact' && b.kind === 'contact' && a.contact.id === b.contact.id
              }
              renderOption={(props, o) => {
                const { key, ...rest } = props as typeof props & { key: string };

                return (
                  <li
                    key={o.kind === 'contact' ? `c-${o.contact.id}` : `new-${key}`}
                    {...rest}
                    data-testid={
                      o.kind === 'contact' ? `new-ticket-contact-${o.contact.id}` : 'new-ticket-create-contact'
                    }
                  >
                    {o.kind === 'contact'
                      ? contactLabel(o.contact)
                      : t('tickets.create.createContact', { name: o.name })}
                  </li>
                );
              }}
              noOptionsText={t('tickets.create.contactHint')}
              loading={contacts.isFetching}
              renderInput={(params) => (
                <TextField
                  {...params}
                  autoFocus
                  label={t('tickets.create.contact')}
                  helperText={t('tickets.create.contactHint')}
                  inputProps={{ ...params.inputProps, 'data-testid': 'new-ticket-contact' }}
                />
              )}
            />
            <FormControl fullWidth size="small" error={touched && queueMissing} required={queueRequired}>
              <InputLabel id="new-ticket-queue-label">{t('tickets.create.queue')}</InputLabel>
              <Select
                labelId="new-ticket-queue-label"
                label={t('tickets.create.queue')}
                value={queueId}
                onChange={(e) => setQueueId(String(e.target.value) === '' ? '' : Number(e.target.value))}
                inputProps={{ 'data-testid': 'new-ticket-queue' }}
              >
                {viewer.isAdmin ? <MenuItem value="">{t('tickets.noQueue')}</MenuItem> : null}
                {queues.data.map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    {queue.name}
                  </MenuItem>
                ))}
              </Select>
              {touched && queueMissing ? <FormHelperText>{t('tickets.create.selectQueue')}</FormHelperText> : null}
            </FormControl>
            <FormControl fullWidth size="small">
              <InputLabel id="new-ticket-whatsapp-label">{t('tickets.create.connection')}</InputLabel>
              <Select
                labelId="new-ticket-whatsapp-label"
                label={t('tickets.create.connection')}
                value={whatsappId}
                onChange={(e) => setWhatsappId(String(e.target.value) === '' ? '' : Number(e.target.value))}
                inputProps={{ 'data-testid': 'new-ticket-whatsapp' }}
              >
                <MenuItem value="">{t('tickets.create.noConnection')}</MenuItem>
                {(whatsapps.data ?? []).map((w) => (
                  <MenuItem key={w.id} value={w.id}>
                    {w.name} — {w.status}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit" data-testid="new-ticket-cancel">
            {t('tickets.create.cancel')}
          </Button>
          <Button
            variant="contained"
            disabled={!contact || saving}
            onClick={() => void submit()}
            data-testid="new-ticket-ok"
          >
            {t('tickets.create.ok')}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={creating !== null} onClose={() => setCreating(null)} maxWidth="sm" fullWidth>
        <DialogTitle>{t('tickets.create.newContactTitle')}</DialogTitle>
        <DialogContent>
          {creating !== null ? (
            <Stack sx={{ pt: 1 }}>
              <ContactForm
                contact={/^\+?\d[\d\s()-]{6,}$/.test(creating) ? { number: creating } : { name: creating }}
                onSubmit={createContact}
                onCancel={() => setCreating(null)}
                submitLabel={t('tickets.create.save')}
              />
            </Stack>
          ) : null}
        </DialogContent>
      </Dialog>
      <Dialog open={held !== null} onClose={() => setHeld(null)} data-testid="new-ticket-held">
        <DialogTitle>{t('tickets.create.heldTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {held?.queueName
              ? t('tickets.create.held', { user: held.userName, queue: held.queueName })
              : t('tickets.create.heldNoQueue', { user: held?.userName ?? '' })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setHeld(null)}>{t('common.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
};
