import { TaskAlt } from '@mui/icons-material';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { TCompany, TInvoice } from '@zelo/shared';
import { useState } from 'react';
import type { TFunction } from '../../i18n/translator';
import { useTranslation } from '../../i18n/useTranslation';
import { ActionButton, ConfirmDialog, DataTable, type TColumn } from '../../components/kit';
import { toast, toastError } from '../../components/toast';
import { COMPANIES_QUERY_KEY } from '../settings/companies/useCompanies';
import { formatDateOnly } from '../settings/companies/dueDate';
import './i18n';
import { InvoiceStatus, OVERDUE_BACKGROUND } from './InvoicesPage';
import { formatMoney, INVOICES_QUERY_KEY, markInvoicePaid, useInvoices } from './useInvoices';

const formatInstant = (iso: string | null) => (iso ? new Date(iso).toLocaleString('pt-BR') : '');

/** who settled a paid invoice and when (the super user by hand, or the Pix checkout) */
export const paidNote = (t: TFunction, invoice: TInvoice) => {
  if (invoice.status !== 'paid') return '';
  const date = formatInstant(invoice.paidAt);
  if (invoice.paidVia === 'manual') return t('invoices.paidManual', { name: invoice.paidByName ?? '', date });

  return invoice.paidAt ? t('invoices.paidProvider', { date }) : '';
};

/** The super user's view of one company's invoices (companies tab), with "mark paid" after a confirmation. */
export const CompanyInvoicesDialog = ({ company, onClose }: { company: TCompany | null; onClose: () => void }) => {
  const { t } = useTranslation();

  return (
    <Dialog open={company !== null} onClose={onClose} maxWidth="md" fullWidth data-testid="company-invoices-dialog">
      {company && (
        <>
          <DialogTitle>{t('invoices.companyInvoices', { name: company.name })}</DialogTitle>
          <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', minHeight: 320 }}>
            <CompanyInvoices company={company} />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('invoices.close')}</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
};

export const CompanyInvoices = ({ company }: { company: TCompany }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const invoices = useInvoices('', company.id);
  const [asking, setAsking] = useState<TInvoice | null>(null);

  const markPaid = async (invoice: TInvoice) => {
    try {
      await markInvoicePaid(invoice.id);
      toast.success(t('invoices.markedPaid'));
    } catch (err) {
      toastError(err);
    }
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: INVOICES_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: COMPANIES_QUERY_KEY }),
    ]);
  };

  const columns: TColumn<TInvoice>[] = [
    { key: 'detail', header: t('invoices.columns.detail'), render: (i) => `#${i.id} · ${i.detail}`, primary: true },
    { key: 'value', header: t('invoices.columns.value'), align: 'center', render: (i) => formatMoney(i.value) },
    {
      key: 'dueDate',
      header: t('invoices.columns.dueDate'),
      align: 'center',
      render: (i) => formatDateOnly(i.dueDate),
    },
    {
      key: 'status',
      header: t('invoices.columns.status'),
      align: 'center',
      render: (i) => <InvoiceStatus invoice={i} />,
    },
    {
      key: 'paidBy',
      header: t('invoices.columns.paidBy'),
      render: (i) => (
        <Typography variant="body2" data-testid={`company-invoice-paidby-${i.id}`}>
          {paidNote(t, i)}
        </Typography>
      ),
    },
  ];

  return (
    <>
      <DataTable
        rows={invoices.items}
        columns={columns}
        getRowId={(i) => i.id}
        rowTestId={(i) => `company-invoice-row-${i.id}`}
        rowExtras={(i) => ({ bgcolor: i.status === 'expired' ? OVERDUE_BACKGROUND : undefined })}
        actions={(i) =>
          i.status === 'paid' ? null : (
            <ActionButton
              label={t('invoices.markPaid')}
              icon={<TaskAlt fontSize="small" />}
              onClick={() => setAsking(i)}
              testId={`company-invoice-markpaid-${i.id}`}
              color="success"
            />
          )
        }
        isLoading={invoices.isLoading}
        hasMore={invoices.hasMore}
        onLoadMore={invoices.loadMore}
        emptyText={t('invoices.empty')}
      />
      <ConfirmDialog
        open={asking !== null}
        title={asking ? t('invoices.markPaidTitle', { id: asking.id }) : ''}
        confirmLabel={t('invoices.markPaid')}
        onClose={() => setAsking(null)}
        onConfirm={() => asking && void markPaid(asking)}
      >
        {t('invoices.markPaidMessage')}
      </ConfirmDialog>
    </>
  );
};
