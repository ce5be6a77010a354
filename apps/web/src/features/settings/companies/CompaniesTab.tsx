import { EventRepeat, ReceiptLong } from '@mui/icons-material';
import { Stack } from '@mui/material';
import { RECURRENCE_MONTHS, type TCompany } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../../i18n/useTranslation';
import { ActionButton, DataTable, RowActions, type TColumn } from '../../../components/kit';
import { toast, toastError } from '../../../components/toast';
import { CompanyInvoicesDialog } from '../../invoices/CompanyInvoicesDialog';
import { usePlans } from '../plans/usePlans';
import { useInlineEditor } from '../useInlineEditor';
import { CompanyForm } from './CompanyForm';
import { addMonthsToDate, DUE_TONE_BACKGROUND, daysToDueDate, dueDateTone, formatDateOnly } from './dueDate';
import { useCompanies, useDeleteCompany, useSaveCompany } from './useCompanies';

/** Super user: companies form and table with due-date colours, expire, edit and delete. */
export const CompaniesTab = () => {
  const { t } = useTranslation();
  const companiesQuery = useCompanies();
  const plansQuery = usePlans();
  const saveCompany = useSaveCompany();
  const deleteCompany = useDeleteCompany();
  const [invoicesOf, setInvoicesOf] = useState<TCompany | null>(null);
  const editor = useInlineEditor<TCompany>({
    onDelete: (company) => deleteCompany.mutateAsync(company.id),
    deleteTitle: (company) => t('settings.companies.deleteTitle', { name: company.name }),
    deleteMessage: t('settings.companies.deleteMessage'),
    deletedMessage: t('settings.companies.deleted'),
  });

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

  const columns: TColumn<TCompany>[] = [
    { key: 'name', header: t('settings.companies.name'), render: (company) => company.name, primary: true },
    { key: 'email', header: t('settings.companies.email'), render: (company) => company.email },
    { key: 'phone', header: t('settings.companies.phone'), render: (company) => company.phone },
    { key: 'plan', header: t('settings.companies.plan'), render: (company) => company.plan?.name ?? '-' },
    {
      key: 'campaigns',
      header: t('settings.companies.campaigns'),
      align: 'center',
      render: (company) =>
        company.campaignsEnabled ? t('settings.companies.campaignsOn') : t('settings.companies.campaignsOff'),
    },
    {
      key: 'status',
      header: t('settings.companies.status'),
      align: 'center',
      render: (company) => (company.status ? t('settings.companies.active') : t('settings.companies.inactive')),
    },
    {
      key: 'createdAt',
      header: t('settings.companies.createdAt'),
      align: 'center',
      render: (company) => formatDateOnly(company.createdAt),
    },
    {
      key: 'dueDate',
      header: t('settings.companies.dueDate'),
      align: 'center',
      render: (company) => formatDateOnly(company.dueDate) || '-',
    },
    {
      key: 'recurrence',
      header: t('settings.companies.recurrence'),
      align: 'center',
      render: (company) => t(`settings.companies.recurrences.${company.recurrence}`),
    },
  ];

  return (
    <Stack spacing={3}>
      <CompanyForm key={editor.formKey} company={editor.editing} plans={plansQuery.data ?? []} onDone={editor.reset} />
      <DataTable
        rows={companiesQuery.data ?? []}
        columns={columns}
        getRowId={(company) => company.id}
        rowTestId={(company) => `company-row-${company.email}`}
        rowExtras={(company) => {
          const tone = dueDateTone(daysToDueDate(company.dueDate));

          return { 'data-due-tone': tone ?? 'none', bgcolor: tone ? DUE_TONE_BACKGROUND[tone] : undefined };
        }}
        actions={(company) => (
          <RowActions
            onEdit={() => editor.edit(company)}
            onDelete={() => editor.remove.ask(company)}
            editTestId={`company-edit-${company.email}`}
            deleteTestId={`company-delete-${company.email}`}
          >
            <ActionButton
              label={t('invoices.invoicesAction')}
              icon={<ReceiptLong fontSize="small" />}
              onClick={() => setInvoicesOf(company)}
              testId={`company-invoices-${company.email}`}
            />
            <ActionButton
              label={t('settings.companies.expire')}
              icon={<EventRepeat fontSize="small" />}
              onClick={() => void onExpire(company)}
              testId={`company-expire-${company.email}`}
            />
          </RowActions>
        )}
        isLoading={companiesQuery.isLoading}
        hasMore={false}
        onLoadMore={() => undefined}
        emptyText={t('settings.companies.empty')}
      />
      {editor.remove.dialog}
      <CompanyInvoicesDialog company={invoicesOf} onClose={() => setInvoicesOf(null)} />
    </Stack>
  );
};
