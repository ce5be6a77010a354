import { Box, FormControlLabel, Grid, Switch } from '@mui/material';
import { PLAN_FLAGS, type TPlan, type TPlanBody, ZPlanBody } from '@zelo/shared';
import { Controller } from 'react-hook-form';
import { useTranslation } from '../../../i18n/useTranslation';
import { FormTextField, useSchemaForm } from '../../../components/kit';
import { InlineFormButtons } from '../InlineFormButtons';
import { type TPlanFormValues, toPlanFormValues } from './planForm';
import { useSavePlan } from './usePlans';

type TPlanFormProps = {
  /** the plan being edited; null adds one */
  plan: TPlan | null;
  /** after a save, cancel or clear: the parent remounts the form empty */
  onDone: () => void;
};

const NUMBER_FIELDS = ['users', 'connections', 'queues', 'value'] as const;

export const PlanForm = ({ plan, onDone }: TPlanFormProps) => {
  const { t } = useTranslation();
  const savePlan = useSavePlan();
  const { form, submit } = useSchemaForm<TPlanFormValues, TPlanBody>({
    schema: ZPlanBody,
    defaultValues: toPlanFormValues(plan),
    onSubmit: (body) => savePlan.mutateAsync({ id: plan?.id ?? null, body }),
    successMessage: t('settings.plans.saved'),
    onDone,
  });

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <FormTextField form={form} name="name" label={t('settings.plans.name')} size="small" testId="plan-name" />
        </Grid>
        {NUMBER_FIELDS.map((name) => (
          <Grid key={name} size={{ xs: 6, md: 2 }}>
            <FormTextField
              form={form}
              name={name}
              label={t(`settings.plans.${name}`)}
              type="number"
              size="small"
              testId={`plan-${name}`}
              slotProps={{ htmlInput: { min: 0, step: name === 'value' ? 0.01 : 1 } }}
            />
          </Grid>
        ))}
        <Grid size={12} sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
          {PLAN_FLAGS.map((flag) => (
            <Controller
              key={flag}
              name={flag}
              control={form.control}
              render={({ field }) => (
                <FormControlLabel
                  label={t(`settings.plans.flags.${flag}`)}
                  control={
                    <Switch
                      checked={field.value}
                      onChange={(e) => field.onChange(e.target.checked)}
                      slotProps={{ input: { 'data-testid': `plan-${flag}` } as object }}
                    />
                  }
                />
              )}
            />
          ))}
        </Grid>
        <InlineFormButtons
          isEdit={plan !== null}
          onDone={onDone}
          isSubmitting={form.formState.isSubmitting}
          testId="plan"
        />
      </Grid>
    </Box>
  );
};
