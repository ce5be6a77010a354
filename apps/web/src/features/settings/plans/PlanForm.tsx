import { Box, Button, FormControlLabel, Grid, Switch, TextField } from '@mui/material';
import { PLAN_FLAGS, type TPlan, type TPlanBody, ZPlanBody } from '@zelo/shared';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast, toastError } from '../../../components/toast';
import { applyFieldErrors } from '../../../components/applyFieldErrors';
import { formResolver } from '../../../components/formResolver';
import { type TPlanFormValues, toPlanFormValues } from './planForm';
import { useSavePlan } from './usePlans';

type TPlanFormProps = {
  /** the plan being edited; null adds one */
  plan: TPlan | null;
  /** after a save, cancel or clear: the parent remounts the form empty */
  onDone: () => void;
};

const TEXT_FIELDS = ['name', 'users', 'connections', 'queues', 'value'] as const;
type TTextField = (typeof TEXT_FIELDS)[number];

export const PlanForm = ({ plan, onDone }: TPlanFormProps) => {
  const { t } = useTranslation();
  const savePlan = useSavePlan();

  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TPlanFormValues, unknown, TPlanBody>({
    resolver: formResolver(ZPlanBody),
    defaultValues: toPlanFormValues(plan),
  });

  const onSubmit = async (body: TPlanBody) => {
    try {
      await savePlan.mutateAsync({ id: plan?.id ?? null, body });
      toast.success(t('settings.plans.saved'));
      onDone();
    } catch (err) {
      applyFieldErrors(err, TEXT_FIELDS, setError);
      toastError(err);
    }
  };

  const textField = (name: TTextField) => {
    const message = errors[name]?.message;
    const isNumber = name !== 'name';

    return (
      <TextField
        {...register(name)}
        label={t(`settings.plans.${name}`)}
        type={isNumber ? 'number' : 'text'}
        size="small"
        fullWidth
        error={Boolean(message)}
        helperText={message ? t(`validation.${message}`) : undefined}
        slotProps={{
          htmlInput: {
            'data-testid': `plan-${name}`,
            ...(isNumber ? { min: 0, step: name === 'value' ? 0.01 : 1 } : {}),
          },
        }}
      />
    );
  };

  return (
    <Box component="form" onSubmit={handleSubmit(onSubmit)} noValidate>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>{textField('name')}</Grid>
        <Grid size={{ xs: 6, md: 2 }}>{textField('users')}</Grid>
        <Grid size={{ xs: 6, md: 2 }}>{textField('connections')}</Grid>
        <Grid size={{ xs: 6, md: 2 }}>{textField('queues')}</Grid>
        <Grid size={{ xs: 6, md: 2 }}>{textField('value')}</Grid>
        <Grid size={12} sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
          {PLAN_FLAGS.map((flag) => (
            <Controller
              key={flag}
              name={flag}
              control={control}
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
        <Grid size={12} sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
          <Button color="inherit" onClick={onDone} data-testid="plan-clear">
            {plan ? t('settings.actions.cancel') : t('settings.actions.clear')}
          </Button>
          <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="plan-save">
            {t('settings.actions.save')}
          </Button>
        </Grid>
      </Grid>
    </Box>
  );
};
