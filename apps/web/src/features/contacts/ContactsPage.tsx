import Download from '@mui/icons-material/Download';
import Upload from '@mui/icons-material/Upload';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { Avatar, Button, CircularProgress, Typography } from '@mui/material';
import type { TContact } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import {
  ActionButton,
  DataTable,
  ListPage,
  RowActions,
  type TColumn,
  type TListPage,
  useDeleteConfirm,
  useSearch,
} from '../../components/kit';
import { toastError } from '../../components/toast';
import { saveFile } from '../../utils/saveFile';
import { ContactDialog } from './ContactDialog';
import { contactsCsv } from './contactsCache';
import './i18n';
import { ImportDialog } from './ImportDialog';
import { OpenTicketDialog } from './OpenTicketDialog';
import { useContacts } from './useContacts';

/** every contact matching the search, page after page (the export is built in the browser) */
const fetchAllContacts = async (searchParam: string) => {
  const all: TContact[] = [];
  for (let pageNumber = 1; pageNumber <= 5000; pageNumber++) {
    const page = await api.get<TListPage<TContact>>('/contacts', { params: { searchParam, pageNumber } });
    const contacts = (page.contacts as TContact[] | undefined) ?? [];
    all.push(...contacts);
    if (!page.hasMore || contacts.length === 0) {
      break;
    }
  }

  return all;
};

/** /contacts: searchable infinite list with add, edit, delete (admins), import, export and open ticket. */
const ContactsPage = () => {
  const { t } = useTranslation();
  const { isAdmin } = useAuth();
  const { search, setSearch, searchParam } = useSearch();
  const contacts = useContacts(searchParam);
  const [editing, setEditing] = useState<TContact | null | undefined>(undefined);
  const [importOpen, setImportOpen] = useState(false);
  const [ticketContact, setTicketContact] = useState<TContact | null>(null);
  const [exporting, setExporting] = useState(false);
  const remove = useDeleteConfirm<TContact>({
    onDelete: (contact) => contacts.remove(contact.id),
    title: (contact) => t('contacts.deleteTitle', { name: contact.name }),
    message: () => t('contacts.deleteMessage'),
    successMessage: t('contacts.deleted'),
  });

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await fetchAllContacts(searchParam);
      const day = new Date().toISOString().slice(0, 10);
      saveFile(new Blob([contactsCsv(all)], { type: 'text/csv;charset=utf-8' }), `contacts-${day}.csv`);
    } catch (err) {
      toastError(err);
    } finally {
      setExporting(false);
    }
  };

  const columns: TColumn<TContact>[] = [
    {
      key: 'avatar',
      header: '',
      width: 56,
      hideOnPhone: true,
      render: (contact) => (
        <Avatar src={contact.profilePicUrl || undefined} alt={contact.name} sx={{ width: 32, height: 32 }}>
          {contact.name.slice(0, 1).toUpperCase()}
        </Avatar>
      ),
    },
    { key: 'name', header: t('contacts.columns.name'), render: (contact) => contact.name, primary: true },
    { key: 'number', header: t('contacts.columns.number'), render: (contact) => contact.number },
    { key: 'email', header: t('contacts.columns.email'), render: (contact) => contact.email },
  ];

  return (
    <ListPage
      title={
        <>
          {t('contacts.title')}
          {/* a search's count is only the rows up to the page read (the server does not count searches) */}
          {typeof contacts.count === 'number' && !searchParam ? (
            <Typography component="span" color="text.secondary" sx={{ ml: 1 }} data-testid="contacts-count">
              ({contacts.count})
            </Typography>
          ) : null}
        </>
      }
      search={{ value: search, onChange: setSearch, placeholder: t('contacts.search'), testId: 'contacts-search' }}
      add={{ label: t('contacts.add'), onClick: () => setEditing(null), testId: 'contacts-add' }}
      actions={
        <>
          <Button
            variant="outlined"
            startIcon={<Upload />}
            onClick={() => setImportOpen(true)}
            data-testid="contacts-import"
          >
            {t('contacts.importButton')}
          </Button>
          <Button
            variant="outlined"
            startIcon={exporting ? <CircularProgress size={16} /> : <Download />}
            disabled={exporting}
            onClick={() => void exportCsv()}
            data-testid="contacts-export"
          >
            {t('contacts.export')}
          </Button>
        </>
      }
    >
      <DataTable
        rows={contacts.items}
        columns={columns}
        getRowId={(contact) => contact.id}
        rowTestId={(contact) => `contact-row-${contact.number}`}
        actions={(contact) => (
          <RowActions
            onEdit={() => setEditing(contact)}
            onDelete={isAdmin ? () => remove.ask(contact) : undefined}
            editTestId={`contact-edit-${contact.number}`}
            deleteTestId={`contact-delete-${contact.number}`}
          >
            <ActionButton
              label={t('contacts.openTicket')}
              icon={<WhatsApp fontSize="small" />}
              onClick={() => setTicketContact(contact)}
              testId={`contact-ticket-${contact.number}`}
            />
          </RowActions>
        )}
        isLoading={contacts.isLoading}
        hasMore={contacts.hasMore}
        onLoadMore={contacts.loadMore}
        emptyText={contacts.query.error ? t('contacts.loadError') : t('contacts.empty')}
        testId="contacts"
      />
      <ContactDialog
        open={editing !== undefined}
        contact={editing ?? null}
        onSave={contacts.save}
        onClose={() => setEditing(undefined)}
      />
      <ImportDialog
        open={importOpen}
        onClose={() => setImportOpen(false)}
        progress={contacts.progress}
        resetProgress={contacts.resetProgress}
      />
      <OpenTicketDialog contact={ticketContact} onClose={() => setTicketContact(null)} />
      {remove.dialog}
    </ListPage>
  );
};

export default ContactsPage;
