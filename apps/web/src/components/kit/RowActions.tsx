import { DeleteOutline, Edit } from '@mui/icons-material';
import { IconButton, Tooltip } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/useTranslation';

type TActionButtonProps = {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  testId?: string;
  disabled?: boolean;
  color?: 'default' | 'primary' | 'error' | 'success' | 'warning';
};

/** One icon action of a row, with its label as tooltip and accessible name. */
export const ActionButton = ({ label, icon, onClick, testId, disabled, color }: TActionButtonProps) => (
  <Tooltip title={label}>
    <span>
      <IconButton
        size="small"
        aria-label={label}
        onClick={onClick}
        data-testid={testId}
        disabled={disabled}
        color={color}
      >
        {icon}
      </IconButton>
    </span>
  </Tooltip>
);

type TRowActionsProps = {
  onEdit?: () => void;
  onDelete?: () => void;
  /** test ids of the two buttons, e.g. `tag-edit-urgent` */
  editTestId?: string;
  deleteTestId?: string;
  /** further actions before edit and delete */
  children?: ReactNode;
};

/** A row's edit and delete buttons (each only when its handler is given), after any further actions. */
export const RowActions = ({ onEdit, onDelete, editTestId, deleteTestId, children }: TRowActionsProps) => {
  const { t } = useTranslation();

  return (
    <>
      {children}
      {onEdit && (
        <ActionButton label={t('common.edit')} icon={<Edit fontSize="small" />} onClick={onEdit} testId={editTestId} />
      )}
      {onDelete && (
        <ActionButton
          label={t('common.delete')}
          icon={<DeleteOutline fontSize="small" />}
          onClick={onDelete}
          testId={deleteTestId}
        />
      )}
    </>
  );
};
