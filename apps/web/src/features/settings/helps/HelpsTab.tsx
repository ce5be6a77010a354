import { Stack } from '@mui/material';
import type { THelp } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { toast, toastError } from '../../../components/toast';
import { HelpForm } from './HelpForm';
import { HelpsTable } from './HelpsTable';
import { useDeleteHelp, useHelpsAdmin } from './useHelpsAdmin';

/** Super user: help videos form and table. */
export const HelpsTab = () => {
  const { t } = useTranslation();
  const helpsQuery = useHelpsAdmin();
  const deleteHelp = useDeleteHelp();
  const [editing, setEditing] = useState<THelp | null>(null);
  const [formVersion, setFormVersion] = useState(0);
  const [deleting, setDeleting] = useState<THelp | null>(null);

  const resetForm = () => {
    setEditing(null);
    setFormVersion((v) => v + 1);
  };

  const onConfirmDelete = async () => {
    if (!deleting) {
      return;
    }
    try {
      await deleteHelp.mutateAsync(deleting.id);
      toast.success(t('settings.helps.deleted'));
      if (editing?.id === deleting.id) {
        resetForm();
      }
    } catch (err) {
      toastError(err);
    }
    setDeleting(null);
  };

  return (
    <Stack spacing={3}>
      <HelpForm key={`${editing?.id ?? 'new'}-${formVersion}`} help={editing} onDone={resetForm} />
      <HelpsTable
        helps={helpsQuery.data ?? []}
        isLoading={helpsQuery.isLoading}
        onEdit={setEditing}
        onDelete={setDeleting}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('settings.helps.deleteTitle', { title: deleting?.title ?? '' })}
        onConfirm={() => void onConfirmDelete()}
        onClose={() => setDeleting(null)}
      >
        {t('settings.helps.deleteMessage')}
      </ConfirmDialog>
    </Stack>
  );
};
