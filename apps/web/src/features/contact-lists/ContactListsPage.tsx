import Contacts from '@mui/icons-material/Contacts';
import UploadFile from '@mui/icons-material/UploadFile';
import type { TContactList } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import {
  ActionButton,
  DataTable,
  ListPage,
  RowActions,
  type TColumn,
  useDeleteConfirm,
  useSearch,
} from '../../components/kit';
import { ContactListDialog } from './ContactListDialog';
import './i18n';
import { useContactLists } from './useContactLists';

/**
 * /contact-lists: the campaigns' audiences with their item counts (and how many numbers WhatsApp confirmed);
 * add, rename, delete, import a spreadsheet; a row opens its contacts.
 */
const ContactListsPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search, setSearch, searchParam } = useSearch();
  const [editing, setEditing] = useState<TContactList | null | undefined>(undefined);
  const lists = useContactLists(searchParam);
  const remove = useDeleteConfirm<TContactList>({
    onDelete: (list) => lists.remove(list.id),
    title: (list) => t('contactLists.deleteTitle', { name: list.name }),
    message: () => t('contactLists.deleteMessage'),
    successMessage: t('contactLists.deleted'),
  });
  const open = (list: TContactList, importing = false) =>
    navigate(`/contact-lists/${list.id}/contacts${importing ? '?import=1' : ''}`);

  const columns: TColumn<TContactList>[] = [
    { key: 'name', header: t('contactLists.columns.name'), primary: true, render: (list) => list.name },
    {
      key: 'contacts',
      header: t('contactLists.columns.contacts'),
      align: 'center',
      render: (list) => <span data-testid={`contact-list-count-${list.name}`}>{list.contactsCount}</span>,
    },
    {
      key: 'valid',
      header: t('contactLists.columns.valid'),
      align: 'center',
      hideOnPhone: true,
      render: (list) => list.validCount,
    },
  ];

  return (
    <ListPage
      title={t('contactLists.title')}
      search={{
        value: search,
        onChange: setSearch,
        placeholder: t('contactLists.search'),
        testId: 'contact-lists-search',
      }}
      add={{ label: t('contactLists.add'), onClick: () => setEditing(null), testId: 'contact-lists-add' }}
    >
      <DataTable
        rows={lists.items}
        columns={columns}
        getRowId={(list) => list.id}
        rowTestId={(list) => `contact-list-row-${list.name}`}
        onRowClick={(list) => open(list)}
        actions={(list) => (
          <RowActions
            onEdit={() => setEditing(list)}
            onDelete={() => remove.ask(list)}
            editTestId={`contact-list-edit-${list.name}`}
            deleteTestId={`contact-list-delete-${list.name}`}
          >
            <ActionButton
              label={t('contactLists.actions.items')}
              icon={<Contacts fontSize="small" />}
              onClick={() => open(list)}
              testId={`contact-list-items-${list.name}`}
            />
            <ActionButton
              label={t('contactLists.actions.import')}
              icon={<UploadFile fontSize="small" />}
              onClick={() => open(list, true)}
              testId={`contact-list-import-${list.name}`}
            />
          </RowActions>
        )}
        isLoading={lists.isLoading}
        hasMore={lists.hasMore}
        onLoadMore={lists.loadMore}
        emptyText={t('contactLists.empty')}
      />
      <ContactListDialog
        open={editing !== undefined}
        list={editing ?? null}
        onSave={lists.save}
        onClose={() => setEditing(undefined)}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default ContactListsPage;
