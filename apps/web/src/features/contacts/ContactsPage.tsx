import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Download from '@mui/icons-material/Download';
import Edit from '@mui/icons-material/Edit';
import Search from '@mui/icons-material/Search';
import Upload from '@mui/icons-material/Upload';
import WhatsApp from '@mui/icons-material/WhatsApp';
import {
  Avatar,
  Box,
  Button,
  CircularProgress,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { TContact } from '@zelo/shared';
import { type UIEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { toast, toastError } from '../../components/toast';
import { useDebounce } from '../../hooks/useDebounce';
import { isNearBottom } from '../../hooks/useInfiniteScroll';
import { ContactDialog } from './ContactDialog';
import {
  CONTACTS_QUERY_KEY,
  contactsCsv,
  flattenContacts,
  removeContact,
  type TContactsData,
  type TContactsPage,
} from './contactsCache';
import './i18n';
import { ImportDialog } from './ImportDialog';
import { OpenTicketDialog } from './OpenTicketDialog';
import { useContactEvents, useContacts } from './useContacts';

/** every contact matching the search, page after page (the export is built in the browser) */
const fetchAllContacts = async (searchParam: string) => {
  const all: TContact[] = [];
  for (let pageNumber = 1; pageNumber <= 5000; pageNumber++) {
    const page = await api.get<TContactsPage>('/contacts', { params: { searchParam, pageNumber } });
    all.push(...page.contacts);
    if (!page.hasMore || page.contacts.length === 0) {
      break;
    }
  }

  return all;
};

const download = (text: string, fileName: string) => {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};

/** /contacts: searchable infinite list with add, edit, delete (admins), import, export and open ticket. */
const ContactsPage = () => {
  const { t } = useTranslation();
  const { isAdmin } = useAuth();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebounce(search.trim(), 500);
  const query = useContacts(searchParam);
  const { progress, resetProgress } = useContactEvents();
  const contacts = flattenContacts(query.data);
  const count = query.data?.pages[0]?.count;
  const [dialog, setDialog] = useState<{ open: boolean; contact: TContact | null }>({ open: false, contact: null });
  const [deleting, setDeleting] = useState<TContact | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const [ticketContact, setTicketContact] = useState<TContact | null>(null);
  const [exporting, setExporting] = useState(false);
  const $container = useRef<HTMLDivElement>(null);

  const loading = query.isLoading || query.isFetchingNextPage;
  const hasMore = Boolean(query.hasNextPage);
  const loadMoreNearEnd = (el: HTMLElement) => {
    if (hasMore && !loading && isNearBottom(el)) {
      void query.fetchNextPage();
    }
  };
  const onScroll = (e: UIEvent<HTMLDivElement>) => loadMoreNearEnd(e.currentTarget);
  // a first page that does not fill the screen leaves nothing to scroll: keep loading until it does
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check when the list grows or loading ends
  useEffect(() => {
    if ($container.current) {
      loadMoreNearEnd($container.current);
    }
  }, [contacts.length, loading, hasMore]);

  const onConfirmDelete = async () => {
    if (!deleting) {
      return;
    }
    const { id } = deleting;
    setDeleting(null);
    try {
      await api.delete(`/contacts/${id}`);
      queryClient.setQueriesData<TContactsData>({ queryKey: CONTACTS_QUERY_KEY }, (old) => removeContact(old, id));
      toast.success(t('contacts.deleted'));
    } catch (err) {
      toastError(err);
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await fetchAllContacts(searchParam);
      const day = new Date().toISOString().slice(0, 10);
      download(contactsCsv(all), `contacts-${day}.csv`);
    } catch (err) {
      toastError(err);
    } finally {
      setExporting(false);
    }
  };

  const columns = 5;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, p: 2, gap: 2 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} alignItems={{ md: 'center' }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('contacts.title')}
          {typeof count === 'number' ? (
            <Typography component="span" color="text.secondary" sx={{ ml: 1 }} data-testid="contacts-count">
              ({count})
            </Typography>
          ) : null}
        </Typography>
        <TextField
          size="small"
          placeholder={t('contacts.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            htmlInput: { 'data-testid': 'contacts-search', 'aria-label': t('contacts.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Stack direction="row" spacing={1}>
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
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setDialog({ open: true, contact: null })}
            data-testid="contacts-add"
          >
            {t('contacts.add')}
          </Button>
        </Stack>
      </Stack>
      <TableContainer
        ref={$container}
        component={Paper}
        variant="outlined"
        onScroll={onScroll}
        sx={{ flex: 1, minHeight: 200, maxHeight: { xs: 'calc(100vh - 280px)', md: 'calc(100vh - 160px)' } }}
      >
        <Table stickyHeader size="small">
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 56 }} />
              <TableCell>{t('contacts.columns.name')}</TableCell>
              <TableCell>{t('contacts.columns.number')}</TableCell>
              <TableCell>{t('contacts.columns.email')}</TableCell>
              <TableCell align="center">{t('contacts.columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {contacts.map((contact) => (
              <TableRow key={contact.id} hover data-testid={`contact-row-${contact.number}`}>
                <TableCell>
                  <Avatar src={contact.profilePicUrl || undefined} alt={contact.name} sx={{ width: 32, height: 32 }}>
                    {contact.name.slice(0, 1).toUpperCase()}
                  </Avatar>
                </TableCell>
                <TableCell>{contact.name}</TableCell>
                <TableCell>{contact.number}</TableCell>
                <TableCell>{contact.email}</TableCell>
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('contacts.openTicket')}>
                    <IconButton
                      size="small"
                      onClick={() => setTicketContact(contact)}
                      data-testid={`contact-ticket-${contact.number}`}
                    >
                      <WhatsApp fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('contacts.edit')}>
                    <IconButton
                      size="small"
                      onClick={() => setDialog({ open: true, contact })}
                      data-testid={`contact-edit-${contact.number}`}
                    >
                      <Edit fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {isAdmin && (
                    <Tooltip title={t('contacts.delete')}>
                      <IconButton
                        size="small"
                        onClick={() => setDeleting(contact)}
                        data-testid={`contact-delete-${contact.number}`}
                      >
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {loading && (
              <TableRow>
                <TableCell colSpan={columns} align="center">
                  <CircularProgress size={24} aria-label={t('common.loading')} />
                </TableCell>
              </TableRow>
            )}
            {!loading && contacts.length === 0 && (
              <TableRow>
                <TableCell
                  colSpan={columns}
                  align="center"
                  sx={{ color: 'text.secondary', py: 4 }}
                  data-testid="contacts-empty"
                >
                  {query.error ? t('contacts.loadError') : t('contacts.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <ContactDialog
        open={dialog.open}
        contact={dialog.contact}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
      />
      <ImportDialog
        open={importOpen}
        onClose={() => setImportOpen(false)}
        progress={progress}
        resetProgress={resetProgress}
      />
      <OpenTicketDialog contact={ticketContact} onClose={() => setTicketContact(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('contacts.deleteTitle', { name: deleting?.name ?? '' })}
        onConfirm={() => void onConfirmDelete()}
        onClose={() => setDeleting(null)}
      >
        {t('contacts.deleteMessage')}
      </ConfirmDialog>
    </Box>
  );
};

export default ContactsPage;
