import { Box, CircularProgress, Grid } from '@mui/material';
import { SETTING_DEFINITIONS, SETTING_KEYS, type TSetting, type TSettingKey } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { toast, toastError } from '../../components/toast';
import { SettingControl } from './SettingControl';
import { settingValue } from './settingsCache';
import { useUpdateSetting } from './useUpdateSetting';

type TOptionsTabProps = {
  settings: TSetting[] | undefined;
  isLoading: boolean;
};

/** Every company setting, each saved on change with PUT /settings/:key. */

/**
 * Every setting but the company's own Asaas token: Zelo bills through the operator's ASAAS_API_KEY, and a company's
 * token charged nobody (issue 22 B.16), so the screen does not offer it; the key stays readable for the ancestor's
 * client.
 */
export const SHOWN_SETTING_KEYS = SETTING_KEYS.filter((key) => key !== 'asaas');

export const OptionsTab = ({ settings, isLoading }: TOptionsTabProps) => {
  const { t } = useTranslation();
  const updateSetting = useUpdateSetting();

  const onSave = async (key: TSettingKey, value: string) => {
    try {
      await updateSetting.mutateAsync({ key, value });
      toast.success(t('settings.saved'));
    } catch (err) {
      toastError(err);
    }
  };

  if (isLoading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={t('settings.loading')} />
      </Box>
    );
  }

  return (
    <Grid container spacing={2}>
      {SHOWN_SETTING_KEYS.map((key) => (
        <Grid key={key} size={{ xs: 12, sm: 6, md: 4 }}>
          <SettingControl
            settingKey={key}
            value={settingValue(settings, key) ?? SETTING_DEFINITIONS[key].default}
            disabled={updateSetting.isPending && updateSetting.variables?.key === key}
            onSave={(k, v) => void onSave(k, v)}
          />
        </Grid>
      ))}
    </Grid>
  );
};
