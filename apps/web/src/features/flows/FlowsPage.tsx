import AccountTree from '@mui/icons-material/AccountTree';
import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import DriveFileRenameOutline from '@mui/icons-material/DriveFileRenameOutline';
import { Chip, Switch, Tooltip, Typography } from '@mui/material';
import type { TFlowSummary } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import {
  ActionButton,
  DataTable,
  ListPage,
  type TColumn,
  useDeleteConfirm,
  useEditDialog,
  useSearch,
} from '../../components/kit';
import { toast, toastError } from '../../components/toast';
import './i18n';
import { FlowNameDialog } from './FlowNameDialog';
import { duplicateFlow, setFlowActive, useFlowsList } from './flowsApi';

/**
 * /flowbuilders (spec 3 §2.7): the company's conversation flows, searchable; add, rename, open in the editor
 * (a row click too), duplicate, turn on and off (Ativo / Desativado: an inactive flow starts no new run) and
 * delete, which warns that the flow's integrations are lost.
 */
const FlowsPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search, setSearch, searchParam } = useSearch();
  const list = useFlowsList(searchParam);
  const dialog = useEditDialog<TFlowSummary>();
  const remove = useDeleteConfirm<TFlowSummary>({
    onDelete: (f) => list.remove(f.id),
    title: (f) => t('flows.deleteTitle', { name: f.name }),
    message: () => t('flows.deleteMessage'),
    successMessage: t('flows.deleted'),
  });
  const run = async (work: () => Promise<TFlowSummary>, message: string) => {
    try {
      list.upsert(await work());
      toast.success(message);
    } catch (err) {
      toastError(err);
    }
  };

  const columns: TColumn<TFlowSummary>[] = [
    {
      key: 'name',
      header: t('flows.columns.name'),
      primary: true,
      render: (f) => (
        <Typography variant="body2" fontWeight={600} sx={{ wordBreak: 'break-word' }}>
          {f.name}
        </Typography>
      ),
    },
    {
      key: 'status',
      header: t('flows.columns.status'),
      width: 200,
      render: (f) => (
        <>
          <Tooltip title={f.active ? t('flows.actions.deactivate') : t('flows.actions.activate')}>
            <Switch
              size="small"
              checked={f.active}
              onClick={(e) => e.stopPropagation()}
              onChange={(e) => void run(() => setFlowActive(f.id, e.target.checked), t('flows.statusChanged'))}
              slotProps={{
                input: { 'aria-label': t('flows.columns.status'), 'data-testid': `flow-active-${f.id}` } as object,
              }}
            />
          </Tooltip>
          <Chip
            size="small"
            variant="outlined"
            color={f.active ? 'success' : 'default'}
            label={f.active ? t('flows.active') : t('flows.inactive')}
            data-testid={`flow-status-${f.id}`}
          />
        </>
      ),
    },
  ];

  return (
    <ListPage
      title={t('flows.title')}
      search={{ value: search, onChange: setSearch, placeholder: t('flows.search'), testId: 'flows-search' }}
      add={{ label: t('flows.add'), onClick: () => dialog.open(null), testId: 'flows-add' }}
    >
      <DataTable
        rows={list.items}
        columns={columns}
        getRowId={(f) => f.id}
        rowTestId={(f) => `flow-row-${f.id}`}
        onRowClick={(f) => navigate(`/flowbuilder/${f.id}`)}
        actions={(f) => (
          <>
            <ActionButton
              label={t('flows.actions.editName')}
              icon={<DriveFileRenameOutline fontSize="small" />}
              onClick={() => dialog.open(f)}
              testId={`flow-rename-${f.id}`}
            />
            <ActionButton
              label={t('flows.actions.editFlow')}
              icon={<AccountTree fontSize="small" />}
              onClick={() => navigate(`/flowbuilder/${f.id}`)}
              testId={`flow-edit-${f.id}`}
            />
            <ActionButton
              label={t('flows.actions.duplicate')}
              icon={<ContentCopy fontSize="small" />}
              onClick={() => void run(() => duplicateFlow(f.id), t('flows.duplicated'))}
              testId={`flow-duplicate-${f.id}`}
            />
            <ActionButton
              label={t('flows.actions.delete')}
              icon={<DeleteOutline fontSize="small" />}
              onClick={() => remove.ask(f)}
              testId={`flow-delete-${f.id}`}
            />
          </>
        )}
        isLoading={list.isLoading}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        emptyText={t('flows.empty')}
      />
      <FlowNameDialog
        key={dialog.key}
        open={dialog.isOpen}
        flow={dialog.editing ?? null}
        onSaved={(flow) => {
          list.upsert(flow);
          if (dialog.editing === null) {
            navigate(`/flowbuilder/${flow.id}`);
          }
        }}
        onClose={dialog.close}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default FlowsPage;
