import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/useTranslation';

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  /** called after the dialog asked to close */
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
  confirmLabel?: string;
};

export const ConfirmDialog = ({ open, title, onConfirm, onClose, children, confirmLabel }: ConfirmDialogProps) => {
  const { t } = useTranslation();
  const onConfirmClick = () => {
    onClose();
    onConfirm();
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="confirm-dialog-title" maxWidth="xs" fullWidth>
      <DialogTitle id="confirm-dialog-title">{title}</DialogTitle>
      {children ? (
        <DialogContent dividers>
          {typeof children === 'string' ? <Typography>{children}</Typography> : children}
        </DialogContent>
      ) : null}
      <DialogActions>
        <Button onClick={onClose} color="inherit" data-testid="confirm-cancel">
          {t('common.cancel')}
        </Button>
        <Button onClick={onConfirmClick} variant="contained" color="error" data-testid="confirm-ok">
          {confirmLabel ?? t('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
