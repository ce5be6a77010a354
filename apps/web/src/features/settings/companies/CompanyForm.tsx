import { Box, Button, Grid, TextField } from '@mui/material';
import { RECURRENCES, type TCompany, type TCompanyUpdateBody, type TPlan } from '@zelo/shared';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast, toastError } from '../../../components/toast';
import { applyFieldErrors } from '../../../components/applyFieldErrors';
import { formResolver } from '../../../components/formResolver';
import { type TCompanyFormValues, toCompanyFormValues, ZCompanyCreateForm, ZCompanyEditForm } from './companyForm';
import { useSaveCompany } from './useCompanies';

type TCompanyFormProps = {
  /** the company being edited; null adds one */
  company: TCompany | null;
  plans: TPlan[];
  /** after a save, cancel or clear: the parent remounts the form empty */
  onDone: () => void;
};

const TEXT_FIELDS = ['name', 'email', 'phone', 'planId', 'dueDate', 'password'] as const;

export const CompanyForm = ({ company, plans, onDone }: TCompanyFormProps) => {
  const { t } = useTranslation();
  const isEdit = company !== null;
  const saveCompany = useSaveCompany();

  const {
    control,
    register,
    getValues,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TCompanyFormValues, unknown, TCompanyUpdateBody>({
    resolver: formResolver(isEdit ? ZCompanyEditForm : ZCompanyCreateForm),
    defaultValues: toCompanyFormValues(company),
  });

  const onSubmit = async (body: TCompanyUpdateBody) => {
    try {
      await saveCompany.mutateAsync({ id: company?.id ?? null, body });
      toast.success(t('settings.companies.saved'));
      onDone();
    } catch (err) {
      applyFieldErrors(err, TEXT_FIELDS, setError);
      toastError(err);
    }
  };

  const fieldError = (name: (typeof TEXT_FIELDS)[number]) => {
    const message = errors[name]?.message;
    if (!message) {
      return undefined;
    }
    // an unchosen plan coerces to 0, which the schema calls invalid: to the user it is simply missing
    const isMissingPlan = name === 'planId' && getValues('planId') === '';

    return t(`validation.${isMissingPlan ? 'required' : message}`);
  };

  const textField = (name: (typeof TEXT_FIELDS)[number], label: string, type = 'text') => (
    <TextField
      {...register(name)}
      label={label}
      type={type}
      size="small"
      fullWidth
      error={Boolean(errors[name])}
      helperText={fieldError(name)}
      slotProps={{
        htmlInput: { 'data-testid': `company-${name}` },
        inputLabel: type === 'date' ? { shrink: true } : undefined,
      }}
    />
  );

  const booleanSelect = (name: 'status' | 'campaignsEnabled', label: string, onLabel: string, offLabel: string) => (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <TextField
          select
          size="small"
          fullWidth
          label={label}
          value={String(field.value)}
          onChange={(e) => field.onChange(e.target.value === 'true')}
          onBlur={field.onBlur}
          slotProps={{ select: { native: true }, htmlInput: { 'data-testid': `company-${name}` } }}
        >
          <option value="true">{onLabel}</option>
          <option value="false">{offLabel}</option>
        </TextField>
      )}
    />
  );

  return (
    <Box component="form" onSubmit={handleSubmit(onSubmit)} noValidate>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>{textField('name', t('settings.companies.name'))}</Grid>
        <Grid size={{ xs: 12, md: 4 }}>{textField('email', t('settings.companies.email'), 'email')}</Grid>
        <Grid size={{ xs: 12, md: 4 }}>{textField('phone', t('settings.companies.phone'), 'tel')}</Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <TextField
            {...register('planId')}
            select
            size="small"
            fullWidth
            label={t('settings.companies.plan')}
            error={Boolean(errors.planId)}
            helperText={fieldError('planId')}
            slotProps={{
              select: { native: true },
              htmlInput: { 'data-testid': 'company-planId' },
              inputLabel: { shrink: true },
            }}
          >
            <option value="" />
            {plans.map((plan) => (
              <option key={plan.id} value={String(plan.id)}>
                {plan.name}
              </option>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          {booleanSelect(
            'status',
            t('settings.companies.status'),
            t('settings.companies.active'),
            t('settings.companies.inactive'),
          )}
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          {booleanSelect(
            'campaignsEnabled',
            t('settings.companies.campaigns'),
            t('settings.companies.campaignsOn'),
            t('settings.companies.campaignsOff'),
          )}
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>{textField('dueDate', t('settings.companies.dueDate'), 'date')}</Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <TextField
            {...register('recurrence')}
            select
            size="small"
            fullWidth
            label={t('settings.companies.recurrence')}
            slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'company-recurrence' } }}
          >
            {RECURRENCES.map((recurrence) => (
              <option key={recurrence} value={recurrence}>
                {t(`settings.companies.recurrences.${recurrence}`)}
              </option>
            ))}
          </TextField>
        </Grid>
        {!isEdit && (
          <Grid size={{ xs: 12, sm: 6, md: 4 }}>
            <TextField
              {...register('password')}
              label={t('settings.companies.password')}
              type="password"
              autoComplete="new-password"
              size="small"
              fullWidth
              error={Boolean(errors.password)}
              helperText={fieldError('password') ?? t('settings.companies.passwordHint')}
              slotProps={{ htmlInput: { 'data-testid': 'company-password' } }}
            />
          </Grid>
        )}
        <Grid
          size={{ xs: 12, md: isEdit ? 6 : 5 }}
          sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', ml: 'auto' }}
        >
          <Box sx={{ flex: 1 }} />
          <Button color="inherit" onClick={onDone} data-testid="company-clear">
            {isEdit ? t('settings.actions.cancel') : t('settings.actions.clear')}
          </Button>
          <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="company-save">
            {t('settings.actions.save')}
          </Button>
        </Grid>
      </Grid>
    </Box>
  );
};
