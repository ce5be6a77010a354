import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import type { TMessage } from '@zelo/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';

type EditMessageDialogProps = {
  message: TMessage | null;
  onClose: () => void;
  onSave: (message: TMessage, body: string) => Promise<void>;
};

/** Edit the text of an own message. */
export const EditMessageDialog = ({ message, onClose, onSave }: EditMessageDialogProps) => {
  const { t } = useTranslation();
  const [body, setBody] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => setBody(message?.body ?? ''), [message]);

  const save = async () => {
    if (!message || !body.trim()) {
      return;
    }
    setSaving(true);
    try {
      await onSave(message, body.trim());
      onClose();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={message !== null} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t('tickets.messages.editTitle')}</DialogTitle>
      <DialogContent>
        <TextField
          fullWidth
          multiline
          maxRows={8}
          autoFocus
          value={body}
          onChange={(e) => setBody(e.target.value)}
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { 'data-testid': 'message-edit-input' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={saving || !body.trim()}
          onClick={() => void save()}
          data-testid="message-edit-save"
        >
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
