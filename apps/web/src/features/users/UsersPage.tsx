import { Box, Chip } from '@mui/material';
import type { TUser } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { DataTable, ListPage, RowActions, type TColumn, useDeleteConfirm, useSearch } from '../../components/kit';
import { PresenceDot } from '../assignment/PresenceDot';
import './i18n';
import { UserDialog } from './UserDialog';
import { useUsers } from './useUsers';

/** /users (admin): searchable infinite list of the company's users with add, edit and delete. */
const UsersPage = () => {
  const { t } = useTranslation();
  const { search, setSearch, searchParam } = useSearch();
  const [editing, setEditing] = useState<TUser | null | undefined>(undefined);
  const users = useUsers(searchParam);
  const remove = useDeleteConfirm<TUser>({
    onDelete: (user) => users.remove(user.id),
    title: (user) => t('users.deleteTitle', { name: user.name }),
    message: () => t('users.deleteMessage'),
    successMessage: t('users.deleted'),
  });
  const yesNo = (value: boolean) => (value ? t('users.yes') : t('users.no'));

  const columns: TColumn<TUser>[] = [
    { key: 'name', header: t('users.columns.name'), render: (user) => user.name, primary: true },
    { key: 'email', header: t('users.columns.email'), render: (user) => user.email },
    {
      key: 'profile',
      header: t('users.columns.profile'),
      align: 'center',
      render: (u) => t(`users.profiles.${u.profile}`),
    },
    {
      key: 'allTicket',
      header: t('users.columns.allTicket'),
      align: 'center',
      render: (user) => yesNo(user.allTicket === 'enabled'),
    },
    {
      key: 'queues',
      header: t('users.columns.queues'),
      render: (user) => (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {user.queues.map((queue) => (
            <Chip key={queue.id} size="small" label={queue.name} sx={{ bgcolor: queue.color, color: '#fff' }} />
          ))}
        </Box>
      ),
    },
    {
      key: 'online',
      header: t('users.columns.online'),
      align: 'center',
      // online, away (paused for automatic assignment) or offline, live with the users' events
      render: (user) => <PresenceDot user={user} withLabel testId={`user-presence-${user.email}`} />,
    },
  ];

  return (
    <ListPage
      title={t('users.title')}
      search={{ value: search, onChange: setSearch, placeholder: t('users.search'), testId: 'users-search' }}
      add={{ label: t('users.add'), onClick: () => setEditing(null), testId: 'users-add' }}
    >
      <DataTable
        rows={users.items}
        columns={columns}
        getRowId={(user) => user.id}
        rowTestId={(user) => `user-row-${user.email}`}
        actions={(user) => (
          <RowActions
            onEdit={() => setEditing(user)}
            onDelete={() => remove.ask(user)}
            editTestId={`user-edit-${user.email}`}
            deleteTestId={`user-delete-${user.email}`}
          />
        )}
        isLoading={users.isLoading}
        hasMore={users.hasMore}
        onLoadMore={users.loadMore}
        emptyText={t('users.empty')}
      />
      <UserDialog
        open={editing !== undefined}
        user={editing ?? null}
        onSave={users.save}
        onClose={() => setEditing(undefined)}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default UsersPage;
