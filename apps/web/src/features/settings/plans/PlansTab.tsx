import { Stack } from '@mui/material';
import type { TPlan } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { toast, toastError } from '../../../components/toast';
import { PlanForm } from './PlanForm';
import { PlansTable } from './PlansTable';
import { useDeletePlan, usePlans } from './usePlans';

/** Super user: plans form and table; a plan in use cannot be deleted (ERR_PLAN_IN_USE). */
export const PlansTab = () => {
  const { t } = useTranslation();
  const plansQuery = usePlans();
  const deletePlan = useDeletePlan();
  const [editing, setEditing] = useState<TPlan | null>(null);
  const [formVersion, setFormVersion] = useState(0);
  const [deleting, setDeleting] = useState<TPlan | null>(null);

  const resetForm = () => {
    setEditing(null);
    setFormVersion((v) => v + 1);
  };

  const onConfirmDelete = async () => {
    if (!deleting) {
      return;
    }
    try {
      await deletePlan.mutateAsync(deleting.id);
      toast.success(t('settings.plans.deleted'));
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
      <PlanForm key={`${editing?.id ?? 'new'}-${formVersion}`} plan={editing} onDone={resetForm} />
      <PlansTable
        plans={plansQuery.data ?? []}
        isLoading={plansQuery.isLoading}
        onEdit={setEditing}
        onDelete={setDeleting}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('settings.plans.deleteTitle', { name: deleting?.name ?? '' })}
        onConfirm={() => void onConfirmDelete()}
        onClose={() => setDeleting(null)}
      >
        {t('settings.plans.deleteMessage')}
      </ConfirmDialog>
    </Stack>
  );
};
