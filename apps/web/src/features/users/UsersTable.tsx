import { CheckCircle, DeleteOutline, Edit, RemoveCircleOutline } from '@mui/icons-material';
import {
  Box,
  Chip,
  CircularProgress,
  IconButton,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
} from '@mui/material';
import type { TUser } from '@zelo/shared';
import { type UIEvent, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isNearBottom } from '../../hooks/useInfiniteScroll';

type TUsersTableProps = {
  users: TUser[];
  isLoading: boolean;
  hasMore: boolean;
  onLoadMore: () => void;
  onEdit: (user: TUser) => void;
  onDelete: (user: TUser) => void;
};

export const UsersTable = ({ users, isLoading, hasMore, onLoadMore, onEdit, onDelete }: TUsersTableProps) => {
  const { t } = useTranslation();
  const $container = useRef<HTMLDivElement>(null);

  const loadMoreNearEnd = (element: HTMLDivElement) => {
    if (hasMore && !isLoading && isNearBottom(element)) {
      onLoadMore();
    }
  };

  const onScroll = (e: UIEvent<HTMLDivElement>) => loadMoreNearEnd(e.currentTarget);

  // a first page that does not fill a tall screen leaves nothing to scroll: keep loading until it does
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check only when the list grows or loading ends
  useEffect(() => {
    if ($container.current) {
      loadMoreNearEnd($container.current);
    }
  }, [users.length, isLoading, hasMore]);

  return (
    <TableContainer
      ref={$container}
      component={Paper}
      variant="outlined"
      onScroll={onScroll}
      // the layout's height is not fixed: bound the list so it scrolls (and pages) inside itself
      sx={{ flex: 1, minHeight: 200, maxHeight: { xs: 'calc(100vh - 230px)', sm: 'calc(100vh - 160px)' } }}
    >
      <Table stickyHeader size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t('users.columns.name')}</TableCell>
            <TableCell>{t('users.columns.email')}</TableCell>
            <TableCell align="center">{t('users.columns.profile')}</TableCell>
            <TableCell align="center">{t('users.columns.allTicket')}</TableCell>
            <TableCell>{t('users.columns.queues')}</TableCell>
            <TableCell align="center">{t('users.columns.online')}</TableCell>
            <TableCell align="center">{t('users.columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {users.map((user) => (
            <TableRow key={user.id} hover data-testid={`user-row-${user.email}`}>
              <TableCell>{user.name}</TableCell>
              <TableCell>{user.email}</TableCell>
              <TableCell align="center">{t(`users.profiles.${user.profile}`)}</TableCell>
              <TableCell align="center">{user.allTicket === 'enabled' ? t('users.yes') : t('users.no')}</TableCell>
              <TableCell>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {user.queues.map((queue) => (
                    <Chip
                      key={queue.id}
                      size="small"
                      label={queue.name}
                      sx={{ bgcolor: queue.color, color: queue.color ? '#fff' : undefined }}
                    />
                  ))}
                </Box>
              </TableCell>
              <TableCell align="center">
                {user.online ? (
                  <CheckCircle color="success" fontSize="small" titleAccess={t('users.yes')} />
                ) : (
                  <RemoveCircleOutline color="disabled" fontSize="small" titleAccess={t('users.no')} />
                )}
              </TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <Tooltip title={t('users.edit')}>
                  <IconButton size="small" onClick={() => onEdit(user)} data-testid={`user-edit-${user.email}`}>
                    <Edit fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('users.delete')}>
                  <IconButton size="small" onClick={() => onDelete(user)} data-testid={`user-delete-${user.email}`}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
          {isLoading && (
            <TableRow>
              <TableCell colSpan={7} align="center">
                <CircularProgress size={24} aria-label={t('users.loading')} />
              </TableCell>
            </TableRow>
          )}
          {!isLoading && users.length === 0 && (
            <TableRow>
              <TableCell colSpan={7} align="center" sx={{ color: 'text.secondary' }}>
                {t('users.empty')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
