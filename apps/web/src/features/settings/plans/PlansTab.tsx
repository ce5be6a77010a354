import { Box, Chip, Stack } from '@mui/material';
import { PLAN_FLAGS, type TPlan } from '@zelo/shared';
import { useTranslation } from '../../../i18n/useTranslation';
import { DataTable, RowActions, type TColumn } from '../../../components/kit';
import { useInlineEditor } from '../useInlineEditor';
import { PlanForm } from './PlanForm';
import { useDeletePlan, usePlans } from './usePlans';

/** Super user: plans form and table; a plan in use cannot be deleted (ERR_PLAN_IN_USE). */
export const PlansTab = () => {
  const { t, i18n } = useTranslation();
  const plansQuery = usePlans();
  const deletePlan = useDeletePlan();
  const editor = useInlineEditor<TPlan>({
    onDelete: (plan) => deletePlan.mutateAsync(plan.id),
    deleteTitle: (plan) => t('settings.plans.deleteTitle', { name: plan.name }),
    deleteMessage: t('settings.plans.deleteMessage'),
    deletedMessage: t('settings.plans.deleted'),
  });
  const money = new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'BRL' });

  const columns: TColumn<TPlan>[] = [
    { key: 'name', header: t('settings.plans.name'), render: (plan) => plan.name, primary: true },
    { key: 'users', header: t('settings.plans.users'), align: 'center', render: (plan) => plan.users },
    {
      key: 'connections',
      header: t('settings.plans.connections'),
      align: 'center',
      render: (plan) => plan.connections,
    },
    { key: 'queues', header: t('settings.plans.queues'), align: 'center', render: (plan) => plan.queues },
    { key: 'value', header: t('settings.plans.value'), align: 'right', render: (plan) => money.format(plan.value) },
    {
      key: 'features',
      header: t('settings.plans.features'),
      render: (plan) => (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {PLAN_FLAGS.filter((flag) => plan[flag]).map((flag) => (
            <Chip key={flag} size="small" variant="outlined" label={t(`settings.plans.flags.${flag}`)} />
          ))}
        </Box>
      ),
    },
  ];

  return (
    <Stack spacing={3}>
      <PlanForm key={editor.formKey} plan={editor.editing} onDone={editor.reset} />
      <DataTable
        rows={plansQuery.data ?? []}
        columns={columns}
        getRowId={(plan) => plan.id}
        rowTestId={(plan) => `plan-row-${plan.name}`}
        actions={(plan) => (
          <RowActions
            onEdit={() => editor.edit(plan)}
            onDelete={() => editor.remove.ask(plan)}
            editTestId={`plan-edit-${plan.name}`}
            deleteTestId={`plan-delete-${plan.name}`}
          />
        )}
        isLoading={plansQuery.isLoading}
        hasMore={false}
        onLoadMore={() => undefined}
        emptyText={t('settings.plans.empty')}
      />
      {editor.remove.dialog}
    </Stack>
  );
};
