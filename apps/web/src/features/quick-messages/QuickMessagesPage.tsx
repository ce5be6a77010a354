import { AttachFile } from '@mui/icons-material';
import { Chip, Stack, Typography } from '@mui/material';
import type { TQuickMessage } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { useAuth } from '../../app/auth/AuthContext';
import {
  ClampedText,
  DataTable,
  ListPage,
  RowActions,
  type TColumn,
  useDeleteConfirm,
  useEditDialog,
  useSearch,
} from '../../components/kit';
import './i18n';
import { QuickMessageDialog } from './QuickMessageDialog';
import { useQuickMessagesList } from './useQuickMessagesList';

/** Who may change a quick message: its author, or an admin (the server decides the same way). */
export const canEditQuickMessage = (q: TQuickMessage, viewer: { id: number; isAdmin: boolean }) =>
  viewer.isAdmin || q.userId === viewer.id;

/**
 * /quick-messages: the shortcuts the caller can use (the company's shared ones and their own; an admin sees all
 * of the company's), searchable, with add, edit and delete, kept live by the company's events.
 */
const QuickMessagesPage = () => {
  const { t } = useTranslation();
  const { user, isAdmin } = useAuth();
  const { search, setSearch, searchParam } = useSearch();
  const list = useQuickMessagesList(searchParam);
  const dialog = useEditDialog<TQuickMessage>();
  const remove = useDeleteConfirm<TQuickMessage>({
    onDelete: (q) => list.remove(q.id),
    title: (q) => t('quickMessages.deleteTitle', { shortcode: `/${q.shortcode}` }),
    message: () => t('quickMessages.deleteMessage'),
    successMessage: t('quickMessages.deleted'),
  });
  const viewer = { id: user?.id ?? 0, isAdmin };

  const columns: TColumn<TQuickMessage>[] = [
    {
      key: 'shortcode',
      header: t('quickMessages.columns.shortcode'),
      primary: true,
      width: '22%',
      render: (q) => (
        <Typography variant="body2" fontWeight={600} sx={{ wordBreak: 'break-word' }}>
          /{q.shortcode}
        </Typography>
      ),
    },
    {
      key: 'message',
      header: t('quickMessages.columns.message'),
      width: '38%',
      render: (q) => <ClampedText>{q.message}</ClampedText>,
    },
    {
      key: 'attachment',
      header: t('quickMessages.columns.attachment'),
      width: '22%',
      render: (q) =>
        q.mediaPath ? (
          <Stack direction="row" spacing={0.5} alignItems="center" sx={{ minWidth: 0 }}>
            <AttachFile fontSize="small" color="action" />
            <Typography variant="body2" noWrap title={q.mediaName ?? ''} data-testid={`quick-message-file-${q.id}`}>
              {q.mediaName}
            </Typography>
          </Stack>
        ) : (
          <Typography variant="body2" color="text.disabled">
            {t('quickMessages.noAttachment')}
          </Typography>
        ),
    },
    {
      key: 'visibility',
      header: t('quickMessages.columns.visibility'),
      align: 'center',
      render: (q) => (
        <Chip
          size="small"
          variant="outlined"
          color={q.geral ? 'primary' : 'default'}
          label={q.geral ? t('quickMessages.shared') : t('quickMessages.personal')}
        />
      ),
    },
  ];

  return (
    <ListPage
      title={t('quickMessages.title')}
      search={{
        value: search,
        onChange: setSearch,
        placeholder: t('quickMessages.search'),
        testId: 'quick-messages-search',
      }}
      add={{ label: t('quickMessages.add'), onClick: () => dialog.open(null), testId: 'quick-messages-add' }}
    >
      <DataTable
        rows={list.items}
        columns={columns}
        getRowId={(q) => q.id}
        rowTestId={(q) => `quick-message-row-${q.shortcode}`}
        actions={(q) =>
          canEditQuickMessage(q, viewer) ? (
            <RowActions
              onEdit={() => dialog.open(q)}
              onDelete={() => remove.ask(q)}
              editTestId={`quick-message-edit-${q.shortcode}`}
              deleteTestId={`quick-message-delete-${q.shortcode}`}
            />
          ) : null
        }
        isLoading={list.isLoading}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        emptyText={t('quickMessages.empty')}
      />
      <QuickMessageDialog
        key={dialog.key}
        open={dialog.isOpen}
        quickMessage={dialog.editing ?? null}
        onSaved={list.upsert}
        onClose={dialog.close}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default QuickMessagesPage;
