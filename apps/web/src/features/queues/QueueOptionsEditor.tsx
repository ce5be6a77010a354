import { Add, ChevronRight, ExpandMore, PlaylistAdd } from '@mui/icons-material';
import { Box, Button, Chip, CircularProgress, IconButton, Stack, Typography } from '@mui/material';
import { type TQueueOption, ZQueueOptionBody } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { ActionButton, FormDialog, FormTextField, RowActions, useDeleteConfirm } from '../../components/kit';
import './i18n';
import { type TOptionFields, useOptionsLevel, useOptionsWrites } from './useQueueOptions';

const ZOptionFields = ZQueueOptionBody.pick({ title: true, message: true });

/** what the option dialog is doing: adding under a parent (null: the top level), or editing an option */
type TEditing = { parentId: number | null } | { option: TQueueOption } | null;

type TLevelProps = {
  queueId: number;
  parentId: number | null;
  depth: number;
  onAdd: (parentId: number | null) => void;
  onEdit: (option: TQueueOption) => void;
  onDelete: (option: TQueueOption) => void;
};

/** One level of the tree, loaded when shown; each option may open its own level below it. */
const OptionsLevel = ({ queueId, parentId, depth, onAdd, onEdit, onDelete }: TLevelProps) => {
  const { t } = useTranslation();
  const { options, isLoading } = useOptionsLevel(queueId, parentId);

  if (isLoading) {
    return <CircularProgress size={20} aria-label={t('common.loading')} sx={{ m: 1 }} />;
  }

  return (
    <Stack spacing={0.5} data-testid={`queue-options-level-${parentId ?? 'top'}`}>
      {options.length === 0 && depth > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ py: 0.5 }}>
          {t('queues.options.empty')}
        </Typography>
      )}
      {options.map((option) => (
        <OptionNode
          key={option.id}
          option={option}
          queueId={queueId}
          depth={depth}
          onAdd={onAdd}
          onEdit={onEdit}
          onDelete={onDelete}
        />
      ))}
    </Stack>
  );
};

type TNodeProps = Omit<TLevelProps, 'parentId'> & { option: TQueueOption };

const OptionNode = ({ option, queueId, depth, onAdd, onEdit, onDelete }: TNodeProps) => {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);

  return (
    <Box data-testid={`queue-option-${option.id}`} data-option={option.option}>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          p: 0.5,
          borderRadius: 1,
          border: 1,
          borderColor: 'divider',
          bgcolor: 'background.paper',
        }}
      >
        <IconButton
          size="small"
          aria-label={isOpen ? t('queues.options.collapse') : t('queues.options.expand')}
          aria-expanded={isOpen}
          onClick={() => setIsOpen((v) => !v)}
          data-testid={`queue-option-expand-${option.id}`}
        >
          {isOpen ? <ExpandMore fontSize="small" /> : <ChevronRight fontSize="small" />}
        </IconButton>
        <Chip size="small" color="primary" label={option.option} data-testid={`queue-option-number-${option.id}`} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {option.title}
          </Typography>
          <Typography
            variant="caption"
            color="text.secondary"
            sx={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {option.message || t('queues.options.noMessage')}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', flexShrink: 0 }}>
          <RowActions
            onEdit={() => onEdit(option)}
            onDelete={() => onDelete(option)}
            editTestId={`queue-option-edit-${option.id}`}
            deleteTestId={`queue-option-delete-${option.id}`}
          >
            <ActionButton
              label={t('queues.options.addChild')}
              icon={<PlaylistAdd fontSize="small" />}
              onClick={() => {
                setIsOpen(true);
                onAdd(option.id);
              }}
              testId={`queue-option-add-${option.id}`}
            />
          </RowActions>
        </Box>
      </Box>
      {isOpen && (
        <Box sx={{ pl: { xs: 1.5, sm: 3 }, ml: { xs: 1, sm: 2 }, mt: 0.5, borderLeft: 2, borderColor: 'divider' }}>
          <OptionsLevel
            queueId={queueId}
            parentId={option.id}
            depth={depth + 1}
            onAdd={onAdd}
            onEdit={onEdit}
            onDelete={onDelete}
          />
        </Box>
      )}
    </Box>
  );
};

/**
 * The chatbot's options tree of a saved queue (spec 2 §4): the top level, each option opened on demand to
 * its sub-options, at any depth; add, edit (title, message) and delete with a confirm. Numbers are the
 * server's, so a level is reloaded after each change to it.
 *
 * It sits inside the queue dialog's form, so its own dialogs are kept from submitting that form: React sends
 * a portal's submit event up through its parents, and the wrapper below stops it.
 */
export const QueueOptionsEditor = ({ queueId }: { queueId: number }) => {
  const { t } = useTranslation();
  const writes = useOptionsWrites(queueId);
  const [editing, setEditing] = useState<TEditing>(null);
  const remove = useDeleteConfirm<TQueueOption>({
    onDelete: writes.remove,
    title: (option) => t('queues.options.deleteTitle', { option: option.option, title: option.title }),
    message: () => t('queues.options.deleteMessage'),
    successMessage: t('common.deleted'),
  });
  const editedOption = editing && 'option' in editing ? editing.option : null;

  const save = (fields: TOptionFields) =>
    editedOption
      ? writes.update(editedOption, fields)
      : writes.add(editing && 'parentId' in editing ? editing.parentId : null, fields);

  return (
    <Stack spacing={1.5} data-testid="queue-options">
      <Typography variant="body2" color="text.secondary">
        {t('queues.options.hint')}
      </Typography>
      <OptionsLevel
        queueId={queueId}
        parentId={null}
        depth={0}
        onAdd={(parentId) => setEditing({ parentId })}
        onEdit={(option) => setEditing({ option })}
        onDelete={remove.ask}
      />
      <Box>
        <Button
          startIcon={<Add />}
          variant="outlined"
          size="small"
          onClick={() => setEditing({ parentId: null })}
          data-testid="queue-options-add"
        >
          {t('queues.options.add')}
        </Button>
      </Box>
      <Box onSubmit={(e) => e.stopPropagation()}>
        <FormDialog<TOptionFields, TOptionFields>
          open={editing !== null}
          onClose={() => setEditing(null)}
          title={
            editedOption ? t('queues.options.editTitle', { option: editedOption.option }) : t('queues.options.addTitle')
          }
          schema={ZOptionFields}
          defaultValues={{ title: editedOption?.title ?? '', message: editedOption?.message ?? '' }}
          onSubmit={save}
          successMessage={t('queues.options.saved')}
          testId="queue-option"
        >
          {(form) => (
            <>
              <FormTextField
                form={form}
                name="title"
                label={t('queues.options.title')}
                autoFocus
                required
                testId="queue-option-title"
              />
              <FormTextField
                form={form}
                name="message"
                label={t('queues.options.message')}
                helperText={t('queues.options.messageHint')}
                multiline
                minRows={3}
                testId="queue-option-message"
              />
            </>
          )}
        </FormDialog>
        {remove.dialog}
      </Box>
    </Stack>
  );
};
