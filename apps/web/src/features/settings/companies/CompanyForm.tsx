import { Box, Grid, TextField } from '@mui/material';
import { RECURRENCES, type TCompany, type TCompanyUpdateBody, type TPlan } from '@zelo/shared';
import { Controller } from 'react-hook-form';
import { useTranslation } from '../../../i18n/useTranslation';
import { fieldErrorText } from '../../../components/form';
import { FormTextField, useSchemaForm } from '../../../components/kit';
import { InlineFormButtons } from '../InlineFormButtons';
import { type TCompanyFormValues, toCompanyFormValues, ZCompanyCreateForm, ZCompanyEditForm } from './companyForm';
import { useSaveCompany } from './useCompanies';

type TCompanyFormProps = {
  /** the company being edited; null adds one */
  company: TCompany | null;
  plans: TPlan[];
  /** after a save, cancel or clear: the parent remounts the form empty */
  onDone: () => void;
};

type TTextField = 'name' | 'email' | 'phone' | 'dueDate';

export const CompanyForm = ({ company, plans, onDone }: TCompanyFormProps) => {
  const { t } = useTranslation();
  const isEdit = company !== null;
  const saveCompany = useSaveCompany();
  const { form, submit } = useSchemaForm<TCompanyFormValues, TCompanyUpdateBody>({
    schema: isEdit ? ZCompanyEditForm : ZCompanyCreateForm,
    defaultValues: toCompanyFormValues(company),
    onSubmit: (body) => saveCompany.mutateAsync({ id: company?.id ?? null, body }),
    successMessage: t('settings.companies.saved'),
    onDone,
  });
  const { control, register } = form;
  const planError = form.formState.errors.planId;

  const textField = (name: TTextField, label: string, type = 'text') => (
    <FormTextField
      form={form}
      name={name}
      label={label}
      type={type}
      size="small"
      testId={`company-${name}`}
      slotProps={type === 'date' ? { inputLabel: { shrink: true } } : undefined}
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
    <Box component="form" onSubmit={submit} noValidate>
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
            error={Boolean(planError)}
            // an unchosen plan coerces to 0, which the schema calls invalid: to the user it is simply missing
            helperText={
              form.getValues('planId') === '' && planError ? t('validation.required') : fieldErrorText(t, planError)
            }
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
            <FormTextField
              form={form}
              name="password"
              label={t('settings.companies.password')}
              type="password"
              autoComplete="new-password"
              size="small"
              helperText={t('settings.companies.passwordHint')}
              testId="company-password"
            />
          </Grid>
        )}
        <InlineFormButtons
          isEdit={isEdit}
          onDone={onDone}
          isSubmitting={form.formState.isSubmitting}
          testId="company"
          size={{ xs: 12, md: isEdit ? 6 : 5 }}
        />
      </Grid>
    </Box>
  );
};
