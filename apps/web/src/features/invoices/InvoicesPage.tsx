import { Button, Chip, Typography } from '@mui/material';
import type { TInvoice } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { useSearchParams } from 'react-router';
import { DataTable, ListPage, type TColumn, useSearch } from '../../components/kit';
import { formatDateOnly } from '../settings/companies/dueDate';
import { CheckoutDialog } from './CheckoutDialog';
import './i18n';
import { formatMoney, useInvoices } from './useInvoices';

/** an open invoice past its due date: its row is tinted (readable on light and dark) */
export const OVERDUE_BACKGROUND = 'rgba(244, 67, 54, 0.18)';

export const InvoiceStatus = ({ invoice }: { invoice: TInvoice }) => {
  const { t } = useTranslation();

  return (
    <Typography variant="body2" component="span" sx={{ fontWeight: 'bold' }}>
      {t(`invoices.status.${invoice.status}`)}
    </Typography>
  );
};

/**
 * /financeiro (admins): the company's invoices, newest due first, page by page; PAID on a paid one, PAY
 * (the checkout wizard) on the others, overdue unpaid rows tinted. `?pay=<invoiceId>` opens the checkout of
 * that invoice, so other screens can link here.
 */
const InvoicesPage = () => {
  const { t } = useTranslation();
  const { search, setSearch, searchParam } = useSearch();
  const invoices = useInvoices(searchParam);
  const [params, setParams] = useSearchParams();
  const payParam = Number(params.get('pay'));
  const paying = Number.isInteger(payParam) && payParam > 0 ? payParam : null;
  const pay = (id: number | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id === null) next.delete('pay');
        else next.set('pay', String(id));

        return next;
      },
      { replace: id === null },
    );

  const columns: TColumn<TInvoice>[] = [
    { key: 'id', header: t('invoices.columns.id'), align: 'center', render: (i) => i.id, hideOnPhone: true },
    { key: 'detail', header: t('invoices.columns.detail'), render: (i) => i.detail, primary: true },
    {
      key: 'value',
      header: t('invoices.columns.value'),
      align: 'center',
      render: (i) => <strong>{formatMoney(i.value)}</strong>,
    },
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
  ];

  return (
    <ListPage
      title={t('invoices.title')}
      search={{ value: search, onChange: setSearch, placeholder: t('invoices.search'), testId: 'invoices-search' }}
    >
      <DataTable
        rows={invoices.items}
        columns={columns}
        getRowId={(i) => i.id}
        rowTestId={(i) => `invoice-row-${i.id}`}
        rowExtras={(i) => ({
          'data-status': i.status,
          bgcolor: i.status === 'expired' ? OVERDUE_BACKGROUND : undefined,
        })}
        actions={(i) =>
          i.status === 'paid' ? (
            <Chip
              size="small"
              color="success"
              variant="outlined"
              label={t('invoices.PAID')}
              data-testid={`invoice-paid-${i.id}`}
            />
          ) : (
            <Button
              size="small"
              variant="outlined"
              color="secondary"
              onClick={() => pay(i.id)}
              data-testid={`invoice-pay-${i.id}`}
            >
              {t('invoices.PAY')}
            </Button>
          )
        }
        isLoading={invoices.isLoading}
        hasMore={invoices.hasMore}
        onLoadMore={invoices.loadMore}
        emptyText={t('invoices.empty')}
      />
      <CheckoutDialog invoiceId={paying} onClose={() => pay(null)} />
    </ListPage>
  );
};

export default InvoicesPage;
