import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Link, Stack, TextField } from '@mui/material';
import { ZLoginRequest } from '@zelo/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { fieldErrorText } from '../../components/form';
import { PasswordField } from '../../components/PasswordField';
import { toast, toastError } from '../../components/toast';
import { formatDate } from '../../utils/date';
import { AuthShell } from './AuthShell';

/** The due date of a 402 answer: a `dueDate` field of the body, else a date inside the message. */
const expiredOn = (err: ApiError): string => {
  const fromBody = err.body?.dueDate;
  if (typeof fromBody === 'string') {
    return formatDate(fromBody);
  }
  const iso = /\d{4}-\d{2}-\d{2}/.exec(err.message)?.[0];
  if (iso) {
    return formatDate(iso);
  }

  return /\d{2}\/\d{2}\/\d{4}/.exec(err.message)?.[0] ?? '';
};

export const LoginPage = () => {
  const { t } = useTranslation();
  const { login } = useAuth();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(ZLoginRequest), defaultValues: { email: '', password: '' } });

  // on success the public-route guard sends the user back where the login was asked for
  const onSubmit = handleSubmit(async (credentials) => {
    try {
      await login(credentials);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_SUBSCRIPTION_EXPIRED') {
        const date = expiredOn(err);
        toast.error(date ? t('auth.subscriptionExpired', { date }) : t('errors.ERR_SUBSCRIPTION_EXPIRED'));

        return;
      }
      toastError(err);
    }
  });

  return (
    <AuthShell title={t('login.title')}>
      <Box component="form" onSubmit={onSubmit} noValidate>
        <Stack spacing={2}>
          <TextField
            label={t('login.email')}
            type="email"
            autoComplete="email"
            autoFocus
            fullWidth
            {...register('email')}
            error={Boolean(errors.email)}
            helperText={fieldErrorText(t, errors.email)}
            slotProps={{ htmlInput: { 'data-testid': 'login-email' } }}
          />
          <PasswordField
            label={t('login.password')}
            autoComplete="current-password"
            fullWidth
            {...register('password')}
            error={Boolean(errors.password)}
            helperText={fieldErrorText(t, errors.password)}
            testId="login-password"
          />
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting} data-testid="login-submit">
            {t('login.submit')}
          </Button>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
            <Link component={RouterLink} to="/forgetpsw" variant="body2" data-testid="login-forgot">
              {t('login.forgot')}
            </Link>
            <Link component={RouterLink} to="/signup" variant="body2" data-testid="login-signup">
              {t('login.signup')}
            </Link>
          </Box>
        </Stack>
      </Box>
    </AuthShell>
  );
};
