import { FormControlLabel, Stack, Switch, Typography } from '@mui/material';
import { useTranslation } from '../../i18n/useTranslation';
import { toast } from '../../components/toast';
import { useWeeklyMail } from './useReports';

/**
 * "Send me the weekly summary by e-mail": the signed-in admin's opt-in (`GET/PUT /api/reports/weekly-mail`), with
 * the address it goes to. Disabled while it loads or when the server did not answer it.
 */
export const WeeklyMailSwitch = () => {
  const { t } = useTranslation();
  const { query, change } = useWeeklyMail();
  const enabled = query.data?.enabled ?? false;

  const toggle = (next: boolean) =>
    change.mutate(next, {
      onSuccess: (answer) =>
        toast.success(t(answer.enabled ? 'reports.weeklyMail.enabled' : 'reports.weeklyMail.disabled')),
      onError: () => toast.error(t('reports.weeklyMail.failed')),
    });

  return (
    <Stack direction="row" alignItems="center" sx={{ minWidth: 0 }}>
      <FormControlLabel
        sx={{ mr: 0, minWidth: 0 }}
        control={
          <Switch
            checked={enabled}
            disabled={!query.data || change.isPending}
            onChange={(e) => toggle(e.target.checked)}
            slotProps={{ input: { 'aria-label': t('reports.weeklyMail.label') } }}
            data-testid="reports-weekly-mail"
            data-enabled={enabled}
          />
        }
        label={
          <span>
            <Typography variant="body2" component="span" sx={{ display: 'block' }}>
              {t('reports.weeklyMail.label')}
            </Typography>
            {query.data?.email ? (
              <Typography variant="caption" color="text.secondary" component="span" sx={{ display: 'block' }}>
                {t('reports.weeklyMail.to', { email: query.data.email })}
              </Typography>
            ) : null}
          </span>
        }
      />
    </Stack>
  );
};
