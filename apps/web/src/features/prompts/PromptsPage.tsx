import { Typography } from '@mui/material';
import type { TPrompt } from '@zelo/shared';
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
import './i18n';
import { PromptDialog } from './PromptDialog';
import { usePrompts } from './usePrompts';

/**
 * /prompts (admins of a plan with useOpenAi, spec 3 §2.3): the company's AI prompts with their sector and max
 * tokens, searchable, with add, edit and delete, kept live by `company-{id}-prompt`.
 */
const PromptsPage = () => {
  const { t } = useTranslation();
  const { search, setSearch, searchParam } = useSearch();
  const list = usePrompts(searchParam);
  const dialog = useEditDialog<TPrompt>();
  const remove = useDeleteConfirm<TPrompt>({
    onDelete: (p) => list.remove(p.id),
    title: (p) => t('prompts.deleteTitle', { name: p.name }),
    message: () => t('prompts.deleteMessage'),
    successMessage: t('prompts.deleted'),
  });

  const columns: TColumn<TPrompt>[] = [
    {
      key: 'name',
      header: t('prompts.columns.name'),
      primary: true,
      width: '35%',
      render: (p) => (
        <Typography variant="body2" fontWeight={600} sx={{ wordBreak: 'break-word' }}>
          {p.name}
        </Typography>
      ),
    },
    {
      key: 'queue',
      header: t('prompts.columns.queue'),
      render: (p) => <Typography variant="body2">{p.queue?.name ?? '—'}</Typography>,
    },
    {
      key: 'model',
      header: t('prompts.columns.model'),
      render: (p) => (
        <Typography variant="body2" color="text.secondary" noWrap title={p.baseUrl ?? undefined}>
          {p.model}
        </Typography>
      ),
    },
    {
      key: 'maxTokens',
      header: t('prompts.columns.maxTokens'),
      align: 'center',
      render: (p) => <Typography variant="body2">{p.maxTokens}</Typography>,
    },
  ];

  return (
    <ListPage
      title={t('prompts.title')}
      search={{ value: search, onChange: setSearch, placeholder: t('prompts.search'), testId: 'prompts-search' }}
      add={{ label: t('prompts.add'), onClick: () => dialog.open(null), testId: 'prompts-add' }}
    >
      <DataTable
        rows={list.items}
        columns={columns}
        getRowId={(p) => p.id}
        rowTestId={(p) => `prompt-row-${p.name}`}
        actions={(p) => (
          <RowActions
            onEdit={() => dialog.open(p)}
            onDelete={() => remove.ask(p)}
            editTestId={`prompt-edit-${p.name}`}
            deleteTestId={`prompt-delete-${p.name}`}
          />
        )}
        isLoading={list.isLoading}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        emptyText={t('prompts.empty')}
      />
      <PromptDialog
        key={dialog.key}
        open={dialog.isOpen}
        prompt={dialog.editing ?? null}
        onSaved={list.upsert}
        onClose={dialog.close}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default PromptsPage;
