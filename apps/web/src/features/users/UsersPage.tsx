import { Search } from '@mui/icons-material';
import { Box, Button, InputAdornment, Stack, TextField, Typography } from '@mui/material';
import type { TUser } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { toast, toastError } from '../../components/toast';
import { useDebounce } from '../../hooks/useDebounce';
import './i18n';
import { UserDialog } from './UserDialog';
import { UsersTable } from './UsersTable';
import { flattenUsers } from './usersCache';
import { useDeleteUser } from './useDeleteUser';
import { useUserEvents } from './useUserEvents';
import { useUsers } from './useUsers';

/** /users (admin): searchable infinite list of the company's users with add, edit and delete. */
const UsersPage = () => {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebounce(search.trim().toLowerCase(), 500);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<TUser | null>(null);
  const [deleting, setDeleting] = useState<TUser | null>(null);

  const usersQuery = useUsers(searchParam);
  const deleteUser = useDeleteUser();
  useUserEvents();

  const users = flattenUsers(usersQuery.data);

  const openDialog = (user: TUser | null) => {
    setEditing(user);
    setDialogOpen(true);
  };

  const onConfirmDelete = async () => {
    if (!deleting) {
      return;
    }
    try {
      await deleteUser.mutateAsync(deleting.id);
      toast.success(t('users.deleted'));
    } catch (err) {
      toastError(err);
    }
    setDeleting(null);
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, p: 2, gap: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('users.title')}
        </Typography>
        <TextField
          size="small"
          placeholder={t('users.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            htmlInput: { 'data-testid': 'users-search', 'aria-label': t('users.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button variant="contained" onClick={() => openDialog(null)} data-testid="users-add">
          {t('users.add')}
        </Button>
      </Stack>
      <UsersTable
        users={users}
        isLoading={usersQuery.isLoading || usersQuery.isFetchingNextPage}
        hasMore={Boolean(usersQuery.hasNextPage)}
        onLoadMore={() => void usersQuery.fetchNextPage()}
        onEdit={openDialog}
        onDelete={setDeleting}
      />
      <UserDialog open={dialogOpen} user={editing} onClose={() => setDialogOpen(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('users.deleteTitle', { name: deleting?.name ?? '' })}
        onConfirm={() => void onConfirmDelete()}
        onClose={() => setDeleting(null)}
      >
        {t('users.deleteMessage')}
      </ConfirmDialog>
    </Box>
  );
};

export default UsersPage;
