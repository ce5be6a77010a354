import { Box, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { useEffect } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from '../../../i18n/useTranslation';
import { useAuth } from '../../../app/auth/AuthContext';
import { toast, toastError } from '../../../components/toast';
import { formResolver } from '../../../components/formResolver';
import { useCompany, useSaveCompanySchedules } from './useCompanySchedules';
import { maskTime, toWorkingHours, type TWorkingHoursForm, ZWorkingHoursForm } from './workingHours';

/** The company's 7-day working hours (shown when setting scheduleType is 'company'). */
export const SchedulesTab = () => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const companyId = user?.companyId;
  const companyQuery = useCompany(companyId);
  const saveSchedules = useSaveCompanySchedules(companyId);

  const {
    control,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<TWorkingHoursForm, unknown, TWorkingHoursForm>({
    resolver: formResolver(ZWorkingHoursForm),
    defaultValues: { schedules: toWorkingHours(undefined) },
  });
  const { fields } = useFieldArray({ control, name: 'schedules' });

  useEffect(() => {
    if (companyQuery.data) {
      reset({ schedules: toWorkingHours(companyQuery.data.schedules) });
    }
  }, [companyQuery.data, reset]);

  const onSubmit = async ({ schedules }: TWorkingHoursForm) => {
    try {
      await saveSchedules.mutateAsync(schedules);
      toast.success(t('settings.schedules.saved'));
    } catch (err) {
      toastError(err);
    }
  };

  if (companyQuery.isLoading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={t('settings.loading')} />
      </Box>
    );
  }

  const timeError = (index: number, field: 'startTime' | 'endTime') => {
    const message = errors.schedules?.[index]?.[field]?.message;

    return message ? t(`validation.${message}`) : undefined;
  };

  return (
    <Box component="form" onSubmit={handleSubmit(onSubmit)} noValidate sx={{ maxWidth: 640 }}>
      <Typography variant="subtitle1" sx={{ mb: 2 }}>
        {t('settings.schedules.title')}
      </Typography>
      <Stack spacing={1.5}>
        {fields.map((entry, index) => (
          <Stack key={entry.id} direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
            <Typography sx={{ width: { sm: 180 }, flexShrink: 0 }}>
              {t(`settings.schedules.days.${entry.weekdayEn}`)}
            </Typography>
            {(['startTime', 'endTime'] as const).map((field) => (
              <Controller
                key={field}
                control={control}
                name={`schedules.${index}.${field}`}
                render={({ field: input }) => (
                  <TextField
                    size="small"
                    label={field === 'startTime' ? t('settings.schedules.start') : t('settings.schedules.end')}
                    placeholder={t('settings.schedules.format')}
                    name={input.name}
                    inputRef={input.ref}
                    value={input.value}
                    onBlur={input.onBlur}
                    onChange={(e) => input.onChange(maskTime(e.target.value))}
                    error={Boolean(timeError(index, field))}
                    helperText={timeError(index, field)}
                    slotProps={{
                      htmlInput: {
                        inputMode: 'numeric',
                        maxLength: 5,
                        'data-testid': `schedule-${entry.weekdayEn}-${field}`,
                      },
                    }}
                  />
                )}
              />
            ))}
          </Stack>
        ))}
      </Stack>
      <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="schedules-save">
          {t('settings.actions.save')}
        </Button>
      </Box>
    </Box>
  );
};
