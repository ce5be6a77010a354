import { ViewKanban } from '@mui/icons-material';
import { Box, Chip } from '@mui/material';
import type { TTag } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useAuth } from '../../app/auth/AuthContext';
import { DataTable, ListPage, RowActions, type TColumn, useDeleteConfirm, useSearch } from '../../components/kit';
import './i18n';
import { TagDialog } from './TagDialog';
import { useTags } from './useTags';

/** /tags: searchable infinite list of the company's tags with their ticket counts; add, edit, delete (admins). */
const TagsPage = () => {
  const { t } = useTranslation();
  const { isAdmin } = useAuth();
  const { search, setSearch, searchParam } = useSearch();
  const [editing, setEditing] = useState<TTag | null | undefined>(undefined);
  const tags = useTags(searchParam);
  const remove = useDeleteConfirm<TTag>({
    onDelete: (tag) => tags.remove(tag.id),
    title: (tag) => t('tags.deleteTitle', { name: tag.name }),
    message: () => t('tags.deleteMessage'),
    successMessage: t('tags.deleted'),
  });

  const columns: TColumn<TTag>[] = [
    {
      key: 'name',
      header: t('tags.columns.name'),
      primary: true,
      render: (tag) => (
        <Chip
          size="small"
          label={tag.name}
          sx={(theme) => ({ bgcolor: tag.color, color: theme.palette.getContrastText(tag.color), maxWidth: '100%' })}
        />
      ),
    },
    {
      key: 'tickets',
      header: t('tags.columns.tickets'),
      align: 'center',
      render: (tag) => <span data-testid={`tag-count-${tag.name}`}>{tag.ticketsCount}</span>,
    },
    {
      key: 'kanban',
      header: t('tags.columns.kanban'),
      align: 'center',
      render: (tag) =>
        tag.kanban === 1 ? (
          <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
            <ViewKanban color="primary" fontSize="small" aria-hidden />
            {t('tags.yes')}
          </Box>
        ) : (
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {t('tags.no')}
          </Box>
        ),
    },
  ];

  return (
    <ListPage
      title={t('tags.title')}
      search={{ value: search, onChange: setSearch, placeholder: t('tags.search'), testId: 'tags-search' }}
      add={{ label: t('tags.add'), onClick: () => setEditing(null), testId: 'tags-add' }}
    >
      <DataTable
        rows={tags.items}
        columns={columns}
        getRowId={(tag) => tag.id}
        rowTestId={(tag) => `tag-row-${tag.name}`}
        actions={(tag) => (
          <RowActions
            onEdit={() => setEditing(tag)}
            onDelete={isAdmin ? () => remove.ask(tag) : undefined}
            editTestId={`tag-edit-${tag.name}`}
            deleteTestId={`tag-delete-${tag.name}`}
          />
        )}
        isLoading={tags.isLoading}
        hasMore={tags.hasMore}
        onLoadMore={tags.loadMore}
        emptyText={t('tags.empty')}
      />
      <TagDialog
        open={editing !== undefined}
        tag={editing ?? null}
        onSave={tags.save}
        onClose={() => setEditing(undefined)}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default TagsPage;
