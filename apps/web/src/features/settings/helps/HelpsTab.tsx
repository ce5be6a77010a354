import { Box, Stack } from '@mui/material';
import type { THelp } from '@zelo/shared';
import { useTranslation } from '../../../i18n/useTranslation';
import { DataTable, RowActions, type TColumn } from '../../../components/kit';
import { useInlineEditor } from '../useInlineEditor';
import { HelpForm } from './HelpForm';
import { useDeleteHelp, useHelpsAdmin } from './useHelpsAdmin';

/** Super user: help videos form and table. */
export const HelpsTab = () => {
  const { t } = useTranslation();
  const helpsQuery = useHelpsAdmin();
  const deleteHelp = useDeleteHelp();
  const editor = useInlineEditor<THelp>({
    onDelete: (help) => deleteHelp.mutateAsync(help.id),
    deleteTitle: (help) => t('settings.helps.deleteTitle', { title: help.title }),
    deleteMessage: t('settings.helps.deleteMessage'),
    deletedMessage: t('settings.helps.deleted'),
  });

  const columns: TColumn<THelp>[] = [
    { key: 'title', header: t('settings.helps.titleField'), render: (help) => help.title, primary: true },
    {
      key: 'description',
      header: t('settings.helps.description'),
      render: (help) => (
        <Box
          component="span"
          sx={{
            display: 'block',
            maxWidth: 420,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: { sm: 'nowrap' },
          }}
        >
          {help.description}
        </Box>
      ),
    },
    {
      key: 'video',
      header: t('settings.helps.video'),
      render: (help) => (
        <Box component="span" sx={{ fontFamily: 'monospace' }}>
          {help.video}
        </Box>
      ),
    },
  ];

  return (
    <Stack spacing={3}>
      <HelpForm key={editor.formKey} help={editor.editing} onDone={editor.reset} />
      <DataTable
        rows={helpsQuery.data ?? []}
        columns={columns}
        getRowId={(help) => help.id}
        rowTestId={(help) => `help-row-${help.title}`}
        actions={(help) => (
          <RowActions
            onEdit={() => editor.edit(help)}
            onDelete={() => editor.remove.ask(help)}
            editTestId={`help-edit-${help.title}`}
            deleteTestId={`help-delete-${help.title}`}
          />
        )}
        isLoading={helpsQuery.isLoading}
        hasMore={false}
        onLoadMore={() => undefined}
        emptyText={t('settings.helps.empty')}
      />
      {editor.remove.dialog}
    </Stack>
  );
};
