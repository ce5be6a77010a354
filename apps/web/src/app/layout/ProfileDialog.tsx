import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { ZUserBody, ZUserUpdateBody } from '@zelo/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/http';
import { applyServerFieldErrors, fieldErrorText } from '../../components/form';
import { PasswordField } from '../../components/PasswordField';
import { toast, toastError } from '../../components/toast';
import { useAuth } from '../auth/AuthContext';

/** The user's own name, e-mail and password (PUT /users/:id). */
const ZProfileForm = ZUserBody.pick({ name: true, email: true }).extend({ password: ZUserUpdateBody.shape.password });

type ProfileDialogProps = { open: boolean; onClose: () => void };

export const ProfileDialog = ({ open, onClose }: ProfileDialogProps) => {
  const { t } = useTranslation();
  const { user, refreshUser } = useAuth();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ZProfileForm),
    values: { name: user?.name ?? '', email: user?.email ?? '', password: '' },
  });
  if (!user) {
    return null;
  }
  const onSubmit = handleSubmit(async (data) => {
    try {
      await api.put(`/users/${user.id}`, data);
      await refreshUser();
      toast.success(t('profile.saved'));
      onClose();
    } catch (err) {
      if (!applyServerFieldErrors(err, ['name', 'email', 'password'], setError)) {
        toastError(err);
      }
    }
  });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle>{t('profile.title')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('profile.name')}
              {...register('name')}
              error={Boolean(errors.name)}
              helperText={fieldErrorText(t, errors.name)}
              slotProps={{ htmlInput: { 'data-testid': 'profile-name' } }}
              autoFocus
            />
            <TextField
              label={t('profile.email')}
              type="email"
              {...register('email')}
              error={Boolean(errors.email)}
              helperText={fieldErrorText(t, errors.email)}
              slotProps={{ htmlInput: { 'data-testid': 'profile-email' } }}
            />
            <PasswordField
              label={t('profile.password')}
              {...register('password')}
              error={Boolean(errors.password)}
              helperText={fieldErrorText(t, errors.password) ?? t('profile.passwordHint')}
              autoComplete="new-password"
              testId="profile-password"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="profile-save">
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
