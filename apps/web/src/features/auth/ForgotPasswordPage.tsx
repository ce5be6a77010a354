import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, Link, Stack, TextField } from '@mui/material';
import { ZForgotPasswordRequest, ZResetPasswordRequest } from '@zelo/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { Link as RouterLink, useNavigate } from 'react-router';
import { api } from '../../api/http';
import { applyFieldErrors } from '../../components/applyFieldErrors';
import { fieldErrorText } from '../../components/form';
import { PasswordField } from '../../components/PasswordField';
import { toast, toastError } from '../../components/toast';
import { AuthShell } from './AuthShell';

/** Step 1 (spec 3 §2.5): the e-mail that receives a 6-digit code. */
const RequestCodeStep = ({ onSent }: { onSent: (email: string) => void }) => {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(ZForgotPasswordRequest), defaultValues: { email: '' } });
  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await api.post(`/forgetpassword/${encodeURIComponent(email)}`);
      toast.success(t('forgot.codeSent'));
      onSent(email);
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Box component="form" onSubmit={onSubmit} noValidate>
      <Stack spacing={2}>
        <TextField
          label={t('forgot.email')}
          type="email"
          autoComplete="email"
          autoFocus
          fullWidth
          {...register('email')}
          error={Boolean(errors.email)}
          helperText={fieldErrorText(t, errors.email)}
          slotProps={{ htmlInput: { 'data-testid': 'forgot-email' } }}
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting} data-testid="forgot-send">
          {t('forgot.sendCode')}
        </Button>
      </Stack>
    </Box>
  );
};

/** Step 2: the code, the new password and its confirmation, each password with show/hide. */
const ResetStep = ({ email, onBack }: { email: string; onBack: () => void }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ZResetPasswordRequest),
    defaultValues: { email, code: '', password: '', passwordConfirmation: '' },
  });
  const onSubmit = handleSubmit(async (data) => {
    try {
      await api.post('/resetpasswords', data);
      toast.success(t('forgot.success'));
      navigate('/login');
    } catch (err) {
      if (!applyFieldErrors(err, ['code', 'password', 'passwordConfirmation'], setError)) {
        toastError(err);
      }
    }
  });

  return (
    <Box component="form" onSubmit={onSubmit} noValidate>
      <Stack spacing={2}>
        <Alert severity="info" data-testid="forgot-sent-to">
          {t('forgot.codeSentTo', { email })}
        </Alert>
        <TextField
          label={t('forgot.code')}
          autoComplete="one-time-code"
          autoFocus
          fullWidth
          {...register('code')}
          error={Boolean(errors.code)}
          helperText={fieldErrorText(t, errors.code)}
          slotProps={{ htmlInput: { 'data-testid': 'forgot-code', inputMode: 'numeric', maxLength: 6 } }}
        />
        <PasswordField
          label={t('forgot.newPassword')}
          autoComplete="new-password"
          fullWidth
          {...register('password')}
          error={Boolean(errors.password)}
          helperText={fieldErrorText(t, errors.password)}
          testId="forgot-password"
        />
        <PasswordField
          label={t('forgot.confirmPassword')}
          autoComplete="new-password"
          fullWidth
          {...register('passwordConfirmation')}
          error={Boolean(errors.passwordConfirmation)}
          helperText={fieldErrorText(t, errors.passwordConfirmation)}
          testId="forgot-password-confirmation"
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting} data-testid="forgot-submit">
          {t('forgot.submit')}
        </Button>
        <Button onClick={onBack} color="inherit" size="small" data-testid="forgot-change-email">
          {t('forgot.changeEmail')}
        </Button>
      </Stack>
    </Box>
  );
};

export const ForgotPasswordPage = () => {
  const { t } = useTranslation();
  const [email, setEmail] = useState<string | null>(null);

  return (
    <AuthShell title={t('forgot.title')}>
      {email ? <ResetStep email={email} onBack={() => setEmail(null)} /> : <RequestCodeStep onSent={setEmail} />}
      <Box sx={{ mt: 2, textAlign: 'right' }}>
        <Link component={RouterLink} to="/signup" variant="body2" data-testid="forgot-signup">
          {t('forgot.signup')}
        </Link>
      </Box>
    </AuthShell>
  );
};
