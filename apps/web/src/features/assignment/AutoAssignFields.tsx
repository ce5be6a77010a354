import { FormControlLabel, Stack, Switch, Typography } from '@mui/material';
import type { TQueueBody } from '@zelo/shared';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { FormTextField } from '../../components/kit';
import type { TQueueFormValues } from '../queues/queueForm';
import './i18n';

/**
 * The queue dialog's automatic assignment (off by default): the switch, and the most open tickets an agent
 * may hold to get one more from this queue (shown while the switch is on; the server keeps it either way).
 */
export const AutoAssignFields = ({ form }: { form: UseFormReturn<TQueueFormValues, unknown, TQueueBody> }) => {
  const { t } = useTranslation();
  const on = form.watch('autoAssign');

  return (
    <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }} data-testid="queue-auto-assign">
      <Typography component="legend" variant="subtitle2">
        {t('assignment.queue.title')}
      </Typography>
      <Controller
        name="autoAssign"
        control={form.control}
        render={({ field }) => (
          <FormControlLabel
            control={
              <Switch
                checked={field.value}
                onChange={(e) => field.onChange(e.target.checked)}
                onBlur={field.onBlur}
                slotProps={{ input: { 'data-testid': 'queue-auto-assign-switch' } as object }}
              />
            }
            label={t('assignment.queue.switch')}
          />
        )}
      />
      <Typography variant="body2" color="text.secondary">
        {t('assignment.queue.hint')}
      </Typography>
      {on ? (
        <FormTextField
          form={form}
          name="autoAssignMax"
          label={t('assignment.queue.max')}
          helperText={t('assignment.queue.maxHint')}
          inputMode="numeric"
          testId="queue-auto-assign-max"
          sx={{ maxWidth: { sm: 320 } }}
        />
      ) : null}
    </Stack>
  );
};
