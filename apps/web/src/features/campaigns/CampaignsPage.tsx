import { Assessment, PlayArrow, Stop } from '@mui/icons-material';
import { Typography } from '@mui/material';
import type { TCampaign } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import {
  ActionButton,
  DataTable,
  ListPage,
  RowActions,
  type TColumn,
  useDeleteConfirm,
  useEditDialog,
  useSearch,
} from '../../components/kit';
import { toast } from '../../components/toast';
import { CampaignDialog } from './CampaignDialog';
import { CampaignStatusChip } from './CampaignStatusChip';
import { canCancel, canRestart, formatDateTime } from './campaignLogic';
import './i18n';
import { campaignAction, useCampaignsList } from './useCampaigns';

/**
 * /campaigns (admins of companies with campaigns): the company's campaigns, searchable, with their status, audience
 * and dates; a row opens its report; add, edit, delete, cancel (running) and restart (cancelled); kept live by the
 * company's campaign events.
 */
const CampaignsPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search, setSearch, searchParam } = useSearch();
  const list = useCampaignsList(searchParam);
  const dialog = useEditDialog<TCampaign>();
  const [busyId, setBusyId] = useState<number | null>(null);
  const remove = useDeleteConfirm<TCampaign>({
    onDelete: (c) => list.remove(c.id),
    title: (c) => t('campaigns.deleteTitle', { name: c.name }),
    message: () => t('campaigns.deleteMessage'),
    successMessage: t('campaigns.toasts.deleted'),
  });
  const runAction = async (c: TCampaign, action: 'cancel' | 'restart') => {
    setBusyId(c.id);
    try {
      const answer = await campaignAction(c.id, action);
      list.upsert(answer ?? { ...c, status: action === 'cancel' ? 'CANCELADA' : 'EM_ANDAMENTO' });
      toast.success(t(`campaigns.toasts.${action}`));
    } catch (err) {
      // spec 2 §8: the error's message in an error toast
      toast.error(err instanceof Error ? err.message : String(err));
    } finally {
      setBusyId(null);
    }
  };
  const dash = (text: string) => (
    <Typography variant="body2" color="text.disabled" component="span">
      {text}
    </Typography>
  );

  const columns: TColumn<TCampaign>[] = [
    {
      key: 'name',
      header: t('campaigns.columns.name'),
      primary: true,
      render: (c) => (
        <Typography variant="body2" fontWeight={600} sx={{ wordBreak: 'break-word' }}>
          {c.name}
        </Typography>
      ),
    },
    {
      key: 'status',
      header: t('campaigns.columns.status'),
      align: 'center',
      render: (c) => <CampaignStatusChip status={c.status} testId={`campaign-status-${c.id}`} />,
    },
    {
      key: 'whatsapp',
      header: t('campaigns.columns.whatsapp'),
      render: (c) => c.whatsapp?.name ?? dash(t('campaigns.notDefined')),
    },
    {
      key: 'contactList',
      header: t('campaigns.columns.contactList'),
      render: (c) =>
        c.contactList || c.tag
          ? [c.contactList?.name, c.tag ? `#${c.tag.name}` : null].filter(Boolean).join(' · ')
          : dash(t('campaigns.notDefined')),
    },
    {
      key: 'scheduledAt',
      header: t('campaigns.columns.scheduledAt'),
      align: 'center',
      render: (c) => (c.scheduledAt ? formatDateTime(c.scheduledAt) : dash(t('campaigns.notScheduled'))),
    },
    {
      key: 'completedAt',
      header: t('campaigns.columns.completedAt'),
      align: 'center',
      render: (c) => (c.completedAt ? formatDateTime(c.completedAt) : dash(t('campaigns.notConcluded'))),
    },
  ];

  return (
    <ListPage
      title={t('campaigns.title')}
      search={{ value: search, onChange: setSearch, placeholder: t('campaigns.search'), testId: 'campaigns-search' }}
      add={{ label: t('campaigns.add'), onClick: () => dialog.open(null), testId: 'campaigns-add' }}
    >
      <DataTable
        rows={list.items}
        columns={columns}
        getRowId={(c) => c.id}
        rowTestId={(c) => `campaign-row-${c.id}`}
        rowExtras={(c) => ({ 'data-status': c.status, 'data-name': c.name })}
        onRowClick={(c) => navigate(`/campaign/${c.id}/report`)}
        actions={(c) => (
          <RowActions
            onEdit={() => dialog.open(c)}
            onDelete={() => remove.ask(c)}
            editTestId={`campaign-edit-${c.id}`}
            deleteTestId={`campaign-delete-${c.id}`}
          >
            <ActionButton
              label={t('campaigns.actions.report')}
              icon={<Assessment fontSize="small" />}
              onClick={() => navigate(`/campaign/${c.id}/report`)}
              testId={`campaign-report-${c.id}`}
            />
            {canCancel(c) ? (
              <ActionButton
                label={t('campaigns.actions.cancel')}
                icon={<Stop fontSize="small" />}
                color="error"
                disabled={busyId === c.id}
                onClick={() => void runAction(c, 'cancel')}
                testId={`campaign-cancel-${c.id}`}
              />
            ) : null}
            {canRestart(c) ? (
              <ActionButton
                label={t('campaigns.actions.restart')}
                icon={<PlayArrow fontSize="small" />}
                color="success"
                disabled={busyId === c.id}
                onClick={() => void runAction(c, 'restart')}
                testId={`campaign-restart-${c.id}`}
              />
            ) : null}
          </RowActions>
        )}
        isLoading={list.isLoading}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        emptyText={t('campaigns.empty')}
        testId="campaigns-table"
      />
      <CampaignDialog
        key={dialog.key}
        open={dialog.isOpen}
        campaign={dialog.editing ?? null}
        onSaved={list.upsert}
        onClose={dialog.close}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default CampaignsPage;
