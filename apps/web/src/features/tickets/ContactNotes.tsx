import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { Button, IconButton, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { type TTicketNote, ZTicketNoteBody } from '@zelo/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { toast, toastError } from '../../components/toast';
import { formatNoteDate } from './messageLogic';
import { notesKey } from './queryKeys';
import { asList, ticketsApi } from './ticketsApi';

type ContactNotesProps = { ticketId: number; contactId: number };

/** Internal notes about the contact: add (at least 2 characters) and delete after confirmation. */
export const ContactNotes = ({ ticketId, contactId }: ContactNotesProps) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = notesKey(ticketId, contactId);
  const notes = useQuery({
    queryKey: key,
    queryFn: async () => asList<TTicketNote>(await ticketsApi.notes(ticketId, contactId), 'notes'),
  });
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<TTicketNote | null>(null);

  const add = async () => {
    const parsed = ZTicketNoteBody.safeParse({ note: text, ticketId, contactId });
    if (!parsed.success) {
      setError(t(`validation.${parsed.error.issues[0]?.message ?? 'required'}`));

      return;
    }
    setSaving(true);
    try {
      const note = await ticketsApi.addNote(parsed.data);
      queryClient.setQueryData<TTicketNote[]>(key, (old) => [note, ...(old ?? [])]);
      setText('');
      setError(null);
      toast.success(t('tickets.drawer.noteAdded'));
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (note: TTicketNote) => {
    try {
      await ticketsApi.deleteNote(note.id);
      queryClient.setQueryData<TTicketNote[]>(key, (old) => (old ?? []).filter((n) => n.id !== note.id));
      toast.success(t('tickets.drawer.noteDeleted'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Stack spacing={1} data-testid="contact-notes">
      <Typography variant="subtitle2">{t('tickets.drawer.notes')}</Typography>
      <TextField
        size="small"
        multiline
        minRows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t('tickets.drawer.notePlaceholder')}
        error={Boolean(error)}
        helperText={error}
        slotProps={{ htmlInput: { 'data-testid': 'note-input' } }}
      />
      <Button
        size="small"
        variant="contained"
        onClick={() => void add()}
        disabled={saving}
        sx={{ alignSelf: 'flex-end' }}
        data-testid="note-add"
      >
        {t('tickets.drawer.addNote')}
      </Button>
      {(notes.data ?? []).length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('tickets.drawer.noNotes')}
        </Typography>
      ) : (
        <List dense disablePadding>
          {(notes.data ?? []).map((note) => (
            <ListItem
              key={note.id}
              disableGutters
              data-testid={`note-${note.id}`}
              secondaryAction={
                <IconButton
                  edge="end"
                  size="small"
                  onClick={() => setDeleting(note)}
                  aria-label={t('tickets.drawer.deleteNote')}
                  data-testid={`note-delete-${note.id}`}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              }
            >
              <ListItemText
                primary={note.note}
                secondary={`${note.user?.name ?? ''} · ${formatNoteDate(note.createdAt)}`}
                slotProps={{ primary: { sx: { whiteSpace: 'pre-wrap' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('tickets.drawer.deleteNoteTitle')}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      >
        {t('tickets.drawer.deleteNoteMessage')}
      </ConfirmDialog>
    </Stack>
  );
};
