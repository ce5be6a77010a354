import ArrowBack from '@mui/icons-material/ArrowBack';
import Refresh from '@mui/icons-material/Refresh';
import UploadFile from '@mui/icons-material/UploadFile';
import { Box, Button, Chip, IconButton, Tooltip } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { TContactList, TContactListItem } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { api } from '../../api/http';
import {
  ActionButton,
  DataTable,
  ListPage,
  RowActions,
  type TColumn,
  useDeleteConfirm,
  useSearch,
} from '../../components/kit';
import { toast, toastError } from '../../components/toast';
import { ContactListImportDialog } from './ContactListImportDialog';
import { ContactListItemDialog } from './ContactListItemDialog';
import './i18n';
import { contactListQueryKey, useContactListItems } from './useContactLists';

/** valid / invalid / not checked: what the connection said of the number (only valid ones get campaigns) */
export const ValidityChip = ({ item }: { item: TContactListItem }) => {
  const { t } = useTranslation();
  const [label, color] =
    item.isWhatsappValid === true
      ? [t('contactLists.items.valid'), 'success' as const]
      : item.isWhatsappValid === false
        ? [t('contactLists.items.invalid'), 'error' as const]
        : [t('contactLists.items.unchecked'), 'default' as const];

  return (
    <Chip
      size="small"
      variant="outlined"
      color={color}
      label={label}
      data-testid={`validity-${item.number}`}
      data-state={String(item.isWhatsappValid)}
    />
  );
};

/**
 * /contact-lists/:contactListId/contacts: one list's contacts with search, add/edit, delete, the WhatsApp
 * validity of each number (check again per row or for the whole list), and the spreadsheet import
 * (`?import=1` opens it) with its progress and refused rows.
 */
const ContactListItemsPage = () => {
  const { t } = useTranslation();
  const contactListId = Number(useParams().contactListId);
  const [params, setParams] = useSearchParams();
  const { search, setSearch, searchParam } = useSearch();
  const [editing, setEditing] = useState<TContactListItem | null | undefined>(undefined);
  const importing = params.get('import') === '1';
  const setImporting = (on: boolean) => setParams(on ? { import: '1' } : {}, { replace: true });
  const list = useQuery({
    queryKey: contactListQueryKey(contactListId),
    queryFn: () => api.get<TContactList>(`/contact-lists/${contactListId}`),
    enabled: Number.isInteger(contactListId) && contactListId > 0,
  });
  const items = useContactListItems(contactListId, searchParam);
  const remove = useDeleteConfirm<TContactListItem>({
    onDelete: (item) => items.remove(item.id),
    title: (item) => t('contactLists.items.deleteTitle', { name: item.name }),
    message: () => t('contactLists.items.deleteMessage'),
    successMessage: t('contactLists.items.deleted'),
  });
  const checkAgain = async (itemId?: number) => {
    try {
      await items.checkAgain(itemId);
      toast.info(t('contactLists.items.checking'));
    } catch (err) {
      toastError(err);
    }
  };

  const columns: TColumn<TContactListItem>[] = [
    { key: 'name', header: t('contactLists.items.columns.name'), primary: true, render: (item) => item.name },
    { key: 'number', header: t('contactLists.items.columns.number'), render: (item) => item.number },
    {
      key: 'email',
      header: t('contactLists.items.columns.email'),
      hideOnPhone: true,
      render: (item) => item.email,
    },
    {
      key: 'whatsapp',
      header: t('contactLists.items.columns.whatsapp'),
      align: 'center',
      render: (item) => <ValidityChip item={item} />,
    },
  ];

  return (
    <ListPage
      title={
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
          <Tooltip title={t('contactLists.items.back')}>
            <IconButton
              component={RouterLink}
              to="/contact-lists"
              size="small"
              aria-label={t('contactLists.items.back')}
            >
              <ArrowBack fontSize="small" />
            </IconButton>
          </Tooltip>
          <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }} data-testid="contact-list-title">
            {t('contactLists.items.title', { name: list.data?.name ?? '' })}
          </Box>
        </Box>
      }
      search={{
        value: search,
        onChange: setSearch,
        placeholder: t('contactLists.items.search'),
        testId: 'contact-list-items-search',
      }}
      add={{ label: t('contactLists.items.add'), onClick: () => setEditing(null), testId: 'contact-list-items-add' }}
      actions={
        <>
          <Button
            variant="outlined"
            startIcon={<UploadFile />}
            onClick={() => setImporting(true)}
            data-testid="contact-list-items-import"
          >
            {t('contactLists.import.button')}
          </Button>
          <Tooltip title={t('contactLists.items.checkAgain')}>
            <IconButton
              onClick={() => void checkAgain()}
              aria-label={t('contactLists.items.checkAgain')}
              data-testid="contact-list-items-check"
            >
              <Refresh />
            </IconButton>
          </Tooltip>
        </>
      }
    >
      <DataTable
        rows={items.items}
        columns={columns}
        getRowId={(item) => item.id}
        rowTestId={(item) => `contact-list-item-row-${item.number}`}
        actions={(item) => (
          <RowActions
            onEdit={() => setEditing(item)}
            onDelete={() => remove.ask(item)}
            editTestId={`contact-list-item-edit-${item.number}`}
            deleteTestId={`contact-list-item-delete-${item.number}`}
          >
            <ActionButton
              label={t('contactLists.items.checkOne')}
              icon={<Refresh fontSize="small" />}
              onClick={() => void checkAgain(item.id)}
              testId={`contact-list-item-check-${item.number}`}
            />
          </RowActions>
        )}
        isLoading={items.isLoading}
        hasMore={items.hasMore}
        onLoadMore={items.loadMore}
        emptyText={t('contactLists.items.empty')}
      />
      <ContactListItemDialog
        open={editing !== undefined}
        item={editing ?? null}
        onSave={items.save}
        onClose={() => setEditing(undefined)}
      />
      <ContactListImportDialog
        open={importing}
        contactListId={contactListId}
        onClose={() => setImporting(false)}
        progress={items.progress}
        resetProgress={items.resetProgress}
        onImported={items.refresh}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default ContactListItemsPage;
