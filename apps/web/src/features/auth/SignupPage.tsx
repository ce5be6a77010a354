import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Link, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { type TPlan, ZSignUpRequest } from '@zelo/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/http';
import { applyFieldErrors } from '../../components/applyFieldErrors';
import { fieldErrorText } from '../../components/form';
import { PasswordField } from '../../components/PasswordField';
import { toast, toastError } from '../../components/toast';
import { AuthShell } from './AuthShell';
import { maskPhone } from './phoneMask';

const FIELDS = ['name', 'email', 'password', 'phone', 'planId'] as const;

export const SignupPage = () => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const companyId = searchParams.get('companyId');
  const plans = useQuery({ queryKey: ['plans', 'list'], queryFn: () => api.get<TPlan[]>('/plans/list') });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ZSignUpRequest),
    defaultValues: { name: '', email: '', password: '', phone: '', planId: '' },
  });
  const phone = register('phone');
  const money = (value: number) =>
    value.toLocaleString(i18n.language === 'pt' ? 'pt-BR' : i18n.language, { minimumFractionDigits: 2 });

  const onSubmit = handleSubmit(async (data) => {
    try {
      await api.post('/companies/cadastro', companyId ? { ...data, companyId } : data);
      toast.success(t('signup.success'));
      navigate('/login');
    } catch (err) {
      if (!applyFieldErrors(err, FIELDS, setError)) {
        toastError(err);
      }
    }
  });

  return (
    <AuthShell title={t('signup.title')}>
      <Box component="form" onSubmit={onSubmit} noValidate>
        <Stack spacing={2}>
          <TextField
            label={t('signup.name')}
            autoFocus
            fullWidth
            {...register('name')}
            error={Boolean(errors.name)}
            helperText={fieldErrorText(t, errors.name)}
            slotProps={{ htmlInput: { 'data-testid': 'signup-name' } }}
          />
          <TextField
            label={t('signup.email')}
            type="email"
            autoComplete="email"
            fullWidth
            {...register('email')}
            error={Boolean(errors.email)}
            helperText={fieldErrorText(t, errors.email)}
            slotProps={{ htmlInput: { 'data-testid': 'signup-email' } }}
          />
          <PasswordField
            label={t('signup.password')}
            autoComplete="new-password"
            fullWidth
            {...register('password')}
            error={Boolean(errors.password)}
            helperText={fieldErrorText(t, errors.password)}
            testId="signup-password"
          />
          <TextField
            label={t('signup.phone')}
            type="tel"
            autoComplete="tel"
            placeholder="(99) 99999-9999"
            fullWidth
            {...phone}
            onChange={(e) => {
              e.target.value = maskPhone(e.target.value);
              void phone.onChange(e);
            }}
            error={Boolean(errors.phone)}
            helperText={fieldErrorText(t, errors.phone)}
            slotProps={{ htmlInput: { 'data-testid': 'signup-phone', inputMode: 'tel', maxLength: 15 } }}
          />
          <TextField
            select
            label={t('signup.plan')}
            fullWidth
            {...register('planId')}
            error={Boolean(errors.planId) || plans.isError}
            helperText={plans.isError ? t('signup.plansError') : fieldErrorText(t, errors.planId)}
            slotProps={{
              select: { native: true },
              inputLabel: { shrink: true },
              htmlInput: { 'data-testid': 'signup-plan' },
            }}
          >
            <option value="">{t('signup.selectPlan')}</option>
            {(plans.data ?? []).map((plan) => (
              <option key={plan.id} value={plan.id}>
                {t('signup.planOption', {
                  name: plan.name,
                  users: plan.users,
                  connections: plan.connections,
                  queues: plan.queues,
                  value: money(plan.value),
                })}
              </option>
            ))}
          </TextField>
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting} data-testid="signup-submit">
            {t('signup.submit')}
          </Button>
          <Link component={RouterLink} to="/login" variant="body2" align="right" data-testid="signup-login">
            {t('signup.login')}
          </Link>
        </Stack>
      </Box>
    </AuthShell>
  );
};
