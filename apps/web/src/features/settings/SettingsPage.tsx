import { Box, Paper, Tab, Tabs, Typography } from '@mui/material';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n/useTranslation';
import { useAuth } from '../../app/auth/AuthContext';
import { CompaniesTab } from './companies/CompaniesTab';
import { FailedDeliveriesTab } from './failed-deliveries/FailedDeliveriesTab';
import { HelpsTab } from './helps/HelpsTab';
import './i18n';
import { OptionsTab } from './OptionsTab';
import { PlansTab } from './plans/PlansTab';
import { SchedulesTab } from './schedules/SchedulesTab';
import { settingValue } from './settingsCache';
import { type TSettingsTab, visibleSettingsTabs } from './settingsTabs';
import { useSettings } from './useSettings';

const TAB_PARAM = 'tab';

/** /settings (admin): options, working hours, failed deliveries, and for a super user companies, plans and helps. */
const SettingsPage = () => {
  const { t } = useTranslation();
  const { isSuper } = useAuth();
  const settingsQuery = useSettings();
  const [searchParams, setSearchParams] = useSearchParams();

  const tabs = visibleSettingsTabs({ scheduleType: settingValue(settingsQuery.data, 'scheduleType'), isSuper });
  const requested = searchParams.get(TAB_PARAM);
  const current: TSettingsTab = tabs.find((tab) => tab === requested) ?? 'options';

  const onChangeTab = (tab: TSettingsTab) => {
    setSearchParams(
      (params) => {
        params.set(TAB_PARAM, tab);

        return params;
      },
      { replace: true },
    );
  };

  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="h5" component="h1">
        {t('settings.title')}
      </Typography>
      <Paper variant="outlined">
        <Tabs
          value={current}
          onChange={(_e, tab: TSettingsTab) => onChangeTab(tab)}
          variant="scrollable"
          scrollButtons="auto"
          sx={{ borderBottom: 1, borderColor: 'divider' }}
        >
          {tabs.map((tab) => (
            <Tab key={tab} value={tab} label={t(`settings.tabs.${tab}`)} data-testid={`settings-tab-${tab}`} />
          ))}
        </Tabs>
        <Box sx={{ p: 2 }} role="tabpanel" aria-label={t(`settings.tabs.${current}`)}>
          {current === 'options' && <OptionsTab settings={settingsQuery.data} isLoading={settingsQuery.isLoading} />}
          {current === 'schedules' && <SchedulesTab />}
          {current === 'failedDeliveries' && <FailedDeliveriesTab />}
          {current === 'companies' && <CompaniesTab />}
          {current === 'plans' && <PlansTab />}
          {current === 'helps' && <HelpsTab />}
        </Box>
      </Paper>
    </Box>
  );
};

export default SettingsPage;
