import { Autocomplete, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { type TChat, type TChatBody, ZChatBody } from '@zelo/shared';
import { Controller } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { FormDialog } from '../../components/kit';
import './i18n';

type TMember = { id: number; name: string };
type TChatFormValues = { title: string; users: TMember[] };

type TChatDialogProps = {
  open: boolean;
  /** null makes a new chat */
  chat: TChat | null;
  onSave: (id: number | null, body: TChatBody) => Promise<unknown>;
  onClose: () => void;
};

/** the company's users (GET /users/list), the caller left out: the owner is always a member */
const useMemberOptions = (enabled: boolean, selfId: number | undefined) =>
  useQuery({
    queryKey: ['chats', 'member-options'],
    enabled,
    staleTime: 30_000,
    queryFn: () => api.get<TMember[]>('/users/list'),
    select: (users) => users.filter((u) => u.id !== selfId).map((u) => ({ id: u.id, name: u.name })),
  });

const toValues = (chat: TChat | null, selfId: number | undefined): TChatFormValues => ({
  title: chat?.title ?? '',
  users: chat ? chat.users.filter((u) => u.userId !== selfId).map((u) => ({ id: u.user.id, name: u.user.name })) : [],
});

/**
 * A new chat, or the owner's edit: a title and the members (spec 2 §5: both required; the messages are the
 * ancestor's alerts `fillTitle` and `fillUser`).
 */
export const ChatDialog = ({ open, chat, onSave, onClose }: TChatDialogProps) => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { data: options = [] } = useMemberOptions(open, user?.id);

  return (
    <FormDialog<TChatFormValues, TChatBody>
      open={open}
      onClose={onClose}
      title={chat ? t('chats.dialog.editTitle') : t('chats.dialog.addTitle')}
      schema={ZChatBody}
      defaultValues={toValues(chat, user?.id)}
      onSubmit={(body) => onSave(chat?.id ?? null, body)}
      successMessage={t('chats.saved')}
      testId="chat"
    >
      {(form) => (
        <>
          <TextField
            {...form.register('title')}
            fullWidth
            autoFocus
            required
            label={t('chats.dialog.titleField')}
            error={Boolean(form.formState.errors.title)}
            helperText={form.formState.errors.title ? t('chats.toasts.fillTitle') : undefined}
            slotProps={{ htmlInput: { 'data-testid': 'chat-title' } }}
          />
          <Controller
            name="users"
            control={form.control}
            render={({ field, fieldState }) => (
              <Autocomplete
                multiple
                options={options}
                value={field.value}
                onChange={(_e, value) => field.onChange(value)}
                onBlur={field.onBlur}
                getOptionLabel={(o) => o.name}
                isOptionEqualToValue={(o, v) => o.id === v.id}
                noOptionsText={t('chats.dialog.noUsers')}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    required
                    label={t('chats.dialog.users')}
                    error={Boolean(fieldState.error)}
                    helperText={fieldState.error ? t('chats.toasts.fillUser') : undefined}
                    slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'chat-users' } }}
                  />
                )}
              />
            )}
          />
        </>
      )}
    </FormDialog>
  );
};
