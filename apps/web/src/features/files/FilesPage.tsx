import { Typography } from '@mui/material';
import type { TFileList } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import {
  DataTable,
  ListPage,
  RowActions,
  type TColumn,
  useDeleteConfirm,
  useEditDialog,
  useSearch,
} from '../../components/kit';
import { FileListDialog } from './FileListDialog';
import './i18n';
import { useFileLists } from './useFileLists';

/**
 * /files (admins, spec 3 §2.2): the company's file lists (the files a campaign sends before its message),
 * searchable, with the count of files, add, edit and delete, kept live by `company-{id}-file`.
 */
const FilesPage = () => {
  const { t } = useTranslation();
  const { search, setSearch, searchParam } = useSearch();
  const list = useFileLists(searchParam);
  const dialog = useEditDialog<TFileList>();
  const remove = useDeleteConfirm<TFileList>({
    onDelete: (f) => list.remove(f.id),
    title: (f) => t('files.deleteTitle', { name: f.name }),
    message: () => t('files.deleteMessage'),
    successMessage: t('files.deleted'),
  });

  const columns: TColumn<TFileList>[] = [
    {
      key: 'name',
      header: t('files.columns.name'),
      primary: true,
      width: '30%',
      render: (f) => (
        <Typography variant="body2" fontWeight={600} sx={{ wordBreak: 'break-word' }}>
          {f.name}
        </Typography>
      ),
    },
    {
      key: 'message',
      header: t('files.columns.message'),
      width: '40%',
      render: (f) => (
        <Typography variant="body2" color="text.secondary" noWrap title={f.message}>
          {f.message}
        </Typography>
      ),
    },
    {
      key: 'files',
      header: t('files.columns.files'),
      align: 'center',
      render: (f) => (
        <Typography variant="body2" data-testid={`file-list-count-${f.id}`}>
          {t('files.fileCount', { count: f.options.filter((o) => o.path).length })}
        </Typography>
      ),
    },
  ];

  return (
    <ListPage
      title={t('files.title')}
      search={{ value: search, onChange: setSearch, placeholder: t('files.search'), testId: 'files-search' }}
      add={{ label: t('files.add'), onClick: () => dialog.open(null), testId: 'files-add' }}
    >
      <DataTable
        rows={list.items}
        columns={columns}
        getRowId={(f) => f.id}
        rowTestId={(f) => `file-list-row-${f.name}`}
        actions={(f) => (
          <RowActions
            onEdit={() => dialog.open(f)}
            onDelete={() => remove.ask(f)}
            editTestId={`file-list-edit-${f.name}`}
            deleteTestId={`file-list-delete-${f.name}`}
          />
        )}
        isLoading={list.isLoading}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        emptyText={t('files.empty')}
      />
      <FileListDialog
        key={dialog.key}
        open={dialog.isOpen}
        fileList={dialog.editing ?? null}
        onSaved={list.upsert}
        onClose={dialog.close}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default FilesPage;
