import { Stack } from '@mui/material';
import { RECURRENCE_MONTHS, type TCompany } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { toast, toastError } from '../../../components/toast';
import { usePlans } from '../plans/usePlans';
import { CompaniesTable } from './CompaniesTable';
import { CompanyForm } from './CompanyForm';
import { addMonthsToDate, formatDateOnly } from './dueDate';
import { useCompanies, useDeleteCompany, useSaveCompany } from './useCompanies';

/** Super user: companies form and table with due-date colours, expire, edit and delete. */
export const CompaniesTab = () => {
  const { t } = useTranslation();
  const companiesQuery = useCompanies();
  const plansQuery = usePlans();
  const saveCompany = useSaveCompany();
  const deleteCompany = useDeleteCompany();
  const [editing, setEditing] = useState<TCompany | null>(null);
  /** bumped to remount the form empty after a save, a cancel or a clear */
  const [formVersion, setFormVersion] = useState(0);
  const [deleting, setDeleting] = useState<TCompany | null>(null);

  const resetForm = () => {
    setEditing(null);
    setFormVersion((v) => v + 1);
  };

  /** Moves the due date forward by the recurrence's months (spec 1 §4) and saves it. */
  const onExpire = async (company: TCompany) => {
    const dueDate = addMonthsToDate(company.dueDate, RECURRENCE_MONTHS[company.recurrence] ?? 1);
    try {
      await saveCompany.mutateAsync({ id: company.id, body: { dueDate } });
      toast.success(t('settings.companies.expired', { date: formatDateOnly(dueDate) }));
    } catch (err) {
      toastError(err);
    }
  };

  const onConfirmDelete = async () => {
    if (!deleting) {
      return;
    }
    try {
      await deleteCompany.mutateAsync(deleting.id);
      toast.success(t('settings.companies.deleted'));
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
      <CompanyForm
        key={`${editing?.id ?? 'new'}-${formVersion}`}
        company={editing}
        plans={plansQuery.data ?? []}
        onDone={resetForm}
      />
      <CompaniesTable
        companies={companiesQuery.data ?? []}
        isLoading={companiesQuery.isLoading}
        onEdit={setEditing}
        onExpire={(company) => void onExpire(company)}
        onDelete={setDeleting}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('settings.companies.deleteTitle', { name: deleting?.name ?? '' })}
        onConfirm={() => void onConfirmDelete()}
        onClose={() => setDeleting(null)}
      >
        {t('settings.companies.deleteMessage')}
      </ConfirmDialog>
    </Stack>
  );
};
