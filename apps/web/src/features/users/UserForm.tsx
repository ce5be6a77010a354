import { Visibility, VisibilityOff } from '@mui/icons-material';
import {
  Box,
  Button,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  InputAdornment,
  Stack,
  TextField,
} from '@mui/material';
import { type TUser, type TUserUpdateBody, ZUserBody, ZUserUpdateBody } from '@zelo/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth/AuthContext';
import { toast, toastError } from '../../components/toast';
import { applyFieldErrors } from '../../components/applyFieldErrors';
import { formResolver } from '../../components/formResolver';
import { UserAccessFields } from './UserAccessFields';
import { type TUserFormValues, toUserFormValues, toUserRequest } from './userForm';
import { useSaveUser } from './useSaveUser';

type TUserFormProps = {
  /** null adds a user */
  user: TUser | null;
  onClose: () => void;
};

const FORM_FIELDS = [
  'name',
  'email',
  'password',
  'profile',
  'allTicket',
  'canSeeTicketsWithoutQueue',
  'whatsappId',
  'queueIds',
] as const;

/** The user dialog's form; mounted each time the dialog opens, so its fields start from `user`. */
export const UserForm = ({ user, onClose }: TUserFormProps) => {
  const { t } = useTranslation();
  const { isAdmin } = useAuth();
  const isEdit = user !== null;
  const [showPassword, setShowPassword] = useState(false);
  const saveUser = useSaveUser();

  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TUserFormValues, unknown, TUserUpdateBody>({
    resolver: formResolver(isEdit ? ZUserUpdateBody : ZUserBody),
    defaultValues: toUserFormValues(user),
  });

  const onSubmit = async (body: TUserUpdateBody) => {
    try {
      await saveUser.mutateAsync({ id: user?.id ?? null, body: toUserRequest(body, isAdmin) });
      toast.success(t('users.saved'));
      onClose();
    } catch (err) {
      applyFieldErrors(err, FORM_FIELDS, setError);
      toastError(err);
    }
  };

  const fieldError = (name: 'name' | 'email' | 'password') => {
    const message = errors[name]?.message;

    return message ? t(`validation.${message}`) : undefined;
  };

  return (
    <Box
      component="form"
      onSubmit={handleSubmit(onSubmit)}
      noValidate
      sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
    >
      <DialogTitle>{isEdit ? t('users.dialog.editTitle') : t('users.dialog.addTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              {...register('name')}
              label={t('users.dialog.name')}
              fullWidth
              autoFocus
              error={Boolean(errors.name)}
              helperText={fieldError('name')}
              slotProps={{ htmlInput: { 'data-testid': 'user-name' } }}
            />
            <TextField
              {...register('password')}
              label={t('users.dialog.password')}
              type={showPassword ? 'text' : 'password'}
              autoComplete="new-password"
              fullWidth
              required={!isEdit}
              error={Boolean(errors.password)}
              helperText={fieldError('password') ?? (isEdit ? t('users.dialog.passwordHint') : undefined)}
              slotProps={{
                htmlInput: { 'data-testid': 'user-password' },
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <IconButton
                        aria-label={t('users.dialog.showPassword')}
                        onClick={() => setShowPassword((v) => !v)}
                        edge="end"
                        size="small"
                      >
                        {showPassword ? <VisibilityOff /> : <Visibility />}
                      </IconButton>
                    </InputAdornment>
                  ),
                },
              }}
            />
          </Stack>
          <TextField
            {...register('email')}
            label={t('users.dialog.email')}
            type="email"
            autoComplete="off"
            fullWidth
            required
            error={Boolean(errors.email)}
            helperText={fieldError('email')}
            slotProps={{ htmlInput: { 'data-testid': 'user-email' } }}
          />
          <UserAccessFields control={control} canEditAccess={isAdmin} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" data-testid="user-cancel">
          {t('users.dialog.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="user-save">
          {isEdit ? t('users.dialog.save') : t('users.dialog.add')}
        </Button>
      </DialogActions>
    </Box>
  );
};
