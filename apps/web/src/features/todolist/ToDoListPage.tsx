import { DeleteOutline, Edit } from '@mui/icons-material';
import {
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useAuth } from '../../app/auth/AuthContext';
import './i18n';
import { formatTodoTime, TODO_MAX_LENGTH, type TTodo } from './todoList';
import { useTodos } from './useTodos';

/** /todolist: the user's own tasks, kept in this browser (add, edit, delete), with when each was made and changed. */
const ToDoListPage = () => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { todos, add, edit, remove } = useTodos(user?.id ?? null);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<TTodo | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      return;
    }
    if (editing) {
      edit(editing.id, text);
    } else {
      add(text);
    }
    setText('');
    setEditing(null);
  };
  const startEdit = (todo: TTodo) => {
    setEditing(todo);
    setText(todo.text);
  };
  const cancelEdit = () => {
    setEditing(null);
    setText('');
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, p: { xs: 1, sm: 2 }, gap: 2 }}>
      <Typography variant="h5" component="h1">
        {t('todolist.title')}
      </Typography>
      <Stack component="form" onSubmit={submit} direction="row" spacing={1} alignItems="flex-start">
        <TextField
          fullWidth
          size="small"
          label={editing ? t('todolist.editing') : t('todolist.input')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          helperText={t('todolist.localOnly')}
          slotProps={{ htmlInput: { maxLength: TODO_MAX_LENGTH, 'data-testid': 'todo-input' } }}
        />
        {editing && (
          <Button color="inherit" onClick={cancelEdit} data-testid="todo-cancel" sx={{ flexShrink: 0 }}>
            {t('todolist.cancel')}
          </Button>
        )}
        <Button
          type="submit"
          variant="contained"
          disabled={!text.trim()}
          data-testid="todo-submit"
          sx={{ flexShrink: 0 }}
        >
          {editing ? t('todolist.save') : t('todolist.add')}
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}>
        {todos.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid="todo-empty">
            {t('todolist.empty')}
          </Typography>
        ) : (
          <List data-testid="todo-list">
            {todos.map((todo, index) => (
              <ListItem
                key={todo.id}
                divider={index < todos.length - 1}
                data-testid={`todo-item-${index}`}
                secondaryAction={
                  <Stack direction="row">
                    <Tooltip title={t('todolist.edit')}>
                      <IconButton
                        aria-label={t('todolist.edit')}
                        onClick={() => startEdit(todo)}
                        data-testid={`todo-edit-${index}`}
                      >
                        <Edit fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('todolist.delete')}>
                      <IconButton
                        aria-label={t('todolist.delete')}
                        onClick={() => {
                          if (editing?.id === todo.id) {
                            cancelEdit();
                          }
                          remove(todo.id);
                        }}
                        data-testid={`todo-delete-${index}`}
                      >
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </Stack>
                }
                sx={{ pr: 12, bgcolor: editing?.id === todo.id ? 'action.selected' : undefined }}
              >
                <ListItemText
                  primary={todo.text}
                  secondary={
                    todo.updatedAt === todo.createdAt
                      ? t('todolist.created', { date: formatTodoTime(todo.createdAt) })
                      : `${t('todolist.created', { date: formatTodoTime(todo.createdAt) })} · ${t('todolist.updated', {
                          date: formatTodoTime(todo.updatedAt),
                        })}`
                  }
                  slotProps={{
                    primary: {
                      sx: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
                      'data-testid': 'todo-text',
                    } as object,
                  }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
    </Box>
  );
};

export default ToDoListPage;
