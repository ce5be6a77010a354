import { Chip, Typography } from '@mui/material';
import { FLOW_CAMPAIGN_DELETE_PERMISSION, type TFlowCampaign } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { useAuth } from '../../app/auth/AuthContext';
import {
  DataTable,
  ListPage,
  RowActions,
  type TColumn,
  useDeleteConfirm,
  useEditDialog,
  useSearch,
} from '../../components/kit';
import { useConnections } from '../connections/useConnections';
import { useOptions } from '../connections/useOptions';
import './i18n';
import { PhraseDialog } from './PhraseDialog';
import { usePhraseLists } from './usePhraseLists';

/**
 * Whether the viewer may delete a phrase campaign: the profile permission `contacts-page:deleteContact`
 * (spec 3 §6), which the project grants to admins (as for contacts).
 */
export const canDeletePhrase = (viewer: { isAdmin: boolean }, permission = FLOW_CAMPAIGN_DELETE_PERMISSION) =>
  permission === FLOW_CAMPAIGN_DELETE_PERMISSION && viewer.isAdmin;

/**
 * /phrase-lists (spec 3 §2.6): phrases that start a flow when a customer's whole message matches on the chosen
 * connection; name, phrase, flow, connection and status (Ativo / Desativado), with add, edit and delete.
 */
const PhraseListsPage = () => {
  const { t } = useTranslation();
  const { isAdmin } = useAuth();
  const { search, setSearch, searchParam } = useSearch();
  const list = usePhraseLists(searchParam);
  const { data: flows = [] } = useOptions('/flowbuilder');
  const { data: connections = [] } = useConnections();
  const dialog = useEditDialog<TFlowCampaign>();
  const remove = useDeleteConfirm<TFlowCampaign>({
    onDelete: (c) => list.remove(c.id),
    title: (c) => t('phraseLists.deleteTitle', { name: c.name }),
    message: () => t('phraseLists.deleteMessage'),
    successMessage: t('phraseLists.deleted'),
  });
  const nameOf = (options: { id: number; name: string }[], id: number | null) =>
    options.find((o) => o.id === id)?.name ?? (id ? `#${id}` : '—');

  const columns: TColumn<TFlowCampaign>[] = [
    {
      key: 'name',
      header: t('phraseLists.columns.name'),
      primary: true,
      render: (c) => (
        <Typography variant="body2" fontWeight={600} sx={{ wordBreak: 'break-word' }}>
          {c.name}
        </Typography>
      ),
    },
    { key: 'phrase', header: t('phraseLists.columns.phrase'), render: (c) => `"${c.phrase}"` },
    { key: 'flow', header: t('phraseLists.columns.flow'), render: (c) => nameOf(flows, c.flowId) },
    {
      key: 'connection',
      header: t('phraseLists.columns.connection'),
      render: (c) => nameOf(connections, c.whatsappId),
    },
    {
      key: 'status',
      header: t('phraseLists.columns.status'),
      align: 'center',
      render: (c) => (
        <Chip
          size="small"
          variant="outlined"
          color={c.status ? 'success' : 'default'}
          label={c.status ? t('phraseLists.active') : t('phraseLists.inactive')}
          data-testid={`phrase-status-${c.id}`}
        />
      ),
    },
  ];

  return (
    <ListPage
      title={t('phraseLists.title')}
      search={{ value: search, onChange: setSearch, placeholder: t('phraseLists.search'), testId: 'phrases-search' }}
      add={{ label: t('phraseLists.add'), onClick: () => dialog.open(null), testId: 'phrases-add' }}
    >
      <DataTable
        rows={list.items}
        columns={columns}
        getRowId={(c) => c.id}
        rowTestId={(c) => `phrase-row-${c.id}`}
        actions={(c) => (
          <RowActions
            onEdit={() => dialog.open(c)}
            onDelete={canDeletePhrase({ isAdmin }) ? () => remove.ask(c) : undefined}
            editTestId={`phrase-edit-${c.id}`}
            deleteTestId={`phrase-delete-${c.id}`}
          />
        )}
        isLoading={list.isLoading}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        emptyText={t('phraseLists.empty')}
      />
      <PhraseDialog
        key={dialog.key}
        open={dialog.isOpen}
        campaign={dialog.editing ?? null}
        flows={flows}
        connections={connections}
        onSaved={list.upsert}
        onClose={dialog.close}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default PhraseListsPage;
