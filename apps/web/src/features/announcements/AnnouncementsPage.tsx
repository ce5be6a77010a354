import { Avatar, Box, Chip, Typography } from '@mui/material';
import type { TAnnouncement } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { DataTable, ListPage, RowActions, type TColumn, useDeleteConfirm, useSearch } from '../../components/kit';
import { formatDate } from '../../utils/date';
import { AnnouncementDialog } from './AnnouncementDialog';
import { announcementImageUrl } from './announcementLogic';
import './i18n';
import { PriorityChip } from './PriorityChip';
import { useAnnouncements } from './useAnnouncements';

/** /announcements (super user): every announcement, searchable, with add, edit, delete and an image each. */
const AnnouncementsPage = () => {
  const { t } = useTranslation();
  const { search, setSearch, searchParam } = useSearch();
  const [editing, setEditing] = useState<TAnnouncement | null | undefined>(undefined);
  const announcements = useAnnouncements(searchParam);
  const remove = useDeleteConfirm<TAnnouncement>({
    onDelete: (a) => announcements.remove(a.id),
    title: (a) => t('announcements.deleteTitle', { title: a.title }),
    message: () => t('announcements.deleteMessage'),
    successMessage: t('announcements.deleted'),
  });

  const columns: TColumn<TAnnouncement>[] = [
    {
      key: 'title',
      header: t('announcements.columns.title'),
      primary: true,
      width: '45%',
      render: (a) => (
        <Box sx={{ minWidth: { sm: 220 } }}>
          <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'break-word' }}>
            {a.title}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'break-word' }}>
            {a.text.length > 120 ? `${a.text.slice(0, 120)}…` : a.text}
          </Typography>
        </Box>
      ),
    },
    {
      key: 'priority',
      header: t('announcements.columns.priority'),
      align: 'center',
      render: (a) => <PriorityChip priority={a.priority} />,
    },
    {
      key: 'image',
      header: t('announcements.columns.image'),
      align: 'center',
      render: (a) => {
        const url = announcementImageUrl(a);

        return url ? (
          <Avatar variant="rounded" src={url} alt={a.mediaName ?? ''} sx={{ mx: 'auto', width: 40, height: 40 }} />
        ) : (
          <Typography variant="caption" color="text.secondary">
            {t('announcements.noImage')}
          </Typography>
        );
      },
    },
    {
      key: 'status',
      header: t('announcements.columns.status'),
      align: 'center',
      render: (a) => (
        <Chip
          size="small"
          variant="outlined"
          color={a.status ? 'success' : 'default'}
          label={a.status ? t('announcements.active') : t('announcements.inactive')}
        />
      ),
    },
    {
      key: 'date',
      header: t('announcements.columns.date'),
      align: 'center',
      render: (a) => formatDate(a.createdAt),
    },
  ];

  return (
    <ListPage
      title={t('announcements.title')}
      search={{
        value: search,
        onChange: setSearch,
        placeholder: t('announcements.search'),
        testId: 'announcements-search',
      }}
      add={{ label: t('announcements.add'), onClick: () => setEditing(null), testId: 'announcements-add' }}
    >
      <DataTable
        rows={announcements.items}
        columns={columns}
        getRowId={(a) => a.id}
        rowTestId={(a) => `announcement-row-${a.id}`}
        actions={(a) => (
          <RowActions
            onEdit={() => setEditing(a)}
            onDelete={() => remove.ask(a)}
            editTestId={`announcement-edit-${a.id}`}
            deleteTestId={`announcement-delete-${a.id}`}
          />
        )}
        isLoading={announcements.isLoading}
        hasMore={announcements.hasMore}
        onLoadMore={announcements.loadMore}
        emptyText={t('announcements.empty')}
      />
      <AnnouncementDialog
        open={editing !== undefined}
        announcement={editing ?? null}
        onSave={announcements.save}
        onClose={() => setEditing(undefined)}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default AnnouncementsPage;
