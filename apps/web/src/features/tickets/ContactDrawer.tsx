import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/Edit';
import {
  Avatar,
  Box,
  Button,
  Divider,
  Drawer,
  IconButton,
  Link,
  List,
  ListItem,
  ListItemText,
  Stack,
  Toolbar,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { TContact, TContactBody, TTicket } from '@zelo/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { toast } from '../../components/toast';
import { ContactForm } from './ContactForm';
import { ContactNotes } from './ContactNotes';
import { ticketsApi } from './ticketsApi';

export const CONTACT_DRAWER_WIDTH = 320;

type ContactDrawerProps = { open: boolean; ticket: TTicket; onClose: () => void };

/** Avatar, name, phone and e-mail links, inline edit, notes and extra info (spec 1 §2). */
export const ContactDrawer = ({ open, ticket, onClose }: ContactDrawerProps) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const temporary = useMediaQuery('(max-width:899.95px)');
  const [editing, setEditing] = useState(false);
  const key = ['tickets', 'contact', ticket.contactId];
  const contactQuery = useQuery({ queryKey: key, enabled: open, queryFn: () => ticketsApi.contact(ticket.contactId) });
  const contact: Partial<TContact> = contactQuery.data ?? ticket.contact;

  const save = async (body: TContactBody) => {
    const saved = await ticketsApi.saveContact(ticket.contactId, body);
    queryClient.setQueryData(key, saved);
    setEditing(false);
    toast.success(t('tickets.drawer.saved'));
  };

  return (
    <Drawer
      anchor="right"
      variant={temporary ? 'temporary' : 'persistent'}
      open={open}
      onClose={onClose}
      sx={{ width: open && !temporary ? CONTACT_DRAWER_WIDTH : 0, flexShrink: 0 }}
      slotProps={{ paper: { sx: { width: CONTACT_DRAWER_WIDTH, position: temporary ? 'fixed' : 'absolute' } } }}
      data-testid="contact-drawer"
    >
      {temporary ? <Toolbar /> : null}
      <Stack direction="row" alignItems="center" sx={{ px: 2, py: 1 }}>
        <Typography variant="subtitle1" sx={{ flex: 1 }}>
          {t('tickets.drawer.title')}
        </Typography>
        <IconButton onClick={onClose} aria-label={t('tickets.drawer.close')} data-testid="contact-drawer-close">
          <CloseIcon />
        </IconButton>
      </Stack>
      <Divider />
      <Box sx={{ p: 2, overflowY: 'auto' }}>
        {editing ? (
          <ContactForm
            contact={contact}
            onSubmit={save}
            onCancel={() => setEditing(false)}
            submitLabel={t('tickets.drawer.save')}
          />
        ) : (
          <Stack spacing={1} alignItems="center" sx={{ textAlign: 'center' }}>
            <Avatar src={contact.profilePicUrl || undefined} alt={contact.name} sx={{ width: 96, height: 96 }} />
            <Typography variant="h6" data-testid="contact-drawer-name">
              {contact.name}
            </Typography>
            {contact.number ? <Link href={`tel:${contact.number}`}>{contact.number}</Link> : null}
            {contact.email ? <Link href={`mailto:${contact.email}`}>{contact.email}</Link> : null}
            <Button
              size="small"
              variant="outlined"
              startIcon={<EditIcon />}
              onClick={() => setEditing(true)}
              data-testid="contact-edit"
            >
              {t('tickets.drawer.edit')}
            </Button>
          </Stack>
        )}
        <Divider sx={{ my: 2 }} />
        <ContactNotes ticketId={ticket.id} contactId={ticket.contactId} />
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle2">{t('tickets.drawer.extraInfo')}</Typography>
        {(contact.extraInfo ?? []).length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('tickets.drawer.noExtra')}
          </Typography>
        ) : (
          <List dense disablePadding data-testid="contact-extra-info">
            {(contact.extraInfo ?? []).map((info) => (
              <ListItem key={info.id ?? info.name} disableGutters>
                <ListItemText primary={info.value} secondary={info.name} />
              </ListItem>
            ))}
          </List>
        )}
      </Box>
    </Drawer>
  );
};
