import { Box, CircularProgress, Dialog } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { TConnection } from '@zelo/shared';
import { useEffect } from 'react';
import { api } from '../../api/http';
import { toastError } from '../../components/toast';
import { ConnectionForm } from './ConnectionForm';

type TConnectionDialogProps = {
  open: boolean;
  /** null adds a connection */
  connectionId: number | null;
  onClose: () => void;
  /** after a save; without it the dialog closes */
  onSaved?: (saved: TConnection, created: boolean) => void;
};

/** Add or edit a connection; editing loads the whole record first (GET /whatsapp/:id?session=0). */
export const ConnectionDialog = ({ open, connectionId, onClose, onSaved }: TConnectionDialogProps) => {
  const editing = open && connectionId !== null;
  const record = useQuery({
    queryKey: ['connections', 'edit', connectionId],
    queryFn: () => api.get<TConnection>(`/whatsapp/${connectionId}`, { params: { session: 0 } }),
    enabled: editing,
    staleTime: 0,
    gcTime: 0,
  });
  const ready = !editing || record.data;
  useEffect(() => {
    if (editing && record.error) {
      toastError(record.error);
      onClose();
    }
  }, [editing, record.error, onClose]);

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth scroll="paper" data-testid="connection-dialog">
      {open && ready ? (
        <ConnectionForm
          key={connectionId ?? 'new'}
          connection={editing ? (record.data ?? null) : null}
          onClose={onClose}
          onSaved={onSaved}
        />
      ) : (
        <Box sx={{ p: 6, display: 'flex', justifyContent: 'center' }}>
          <CircularProgress />
        </Box>
      )}
    </Dialog>
  );
};
