import { TextField } from '@mui/material';
import type { TSettingKey } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';

type TSettingSelectProps = {
  settingKey: TSettingKey;
  value: string;
  options: readonly string[];
  /** translate the option labels (`settings.values.<value>`); false shows them as they are */
  translateOptions: boolean;
  disabled: boolean;
  onSave: (value: string) => void;
};

export const SettingSelect = ({
  settingKey,
  value,
  options,
  translateOptions,
  disabled,
  onSave,
}: TSettingSelectProps) => {
  const { t } = useTranslation();

  return (
    <TextField
      select
      fullWidth
      size="small"
      label={t(`settings.keys.${settingKey}`)}
      value={value}
      disabled={disabled}
      onChange={(e) => onSave(e.target.value)}
      slotProps={{ select: { native: true }, htmlInput: { 'data-testid': `setting-${settingKey}` } }}
    >
      {options.map((option) => (
        <option key={option} value={option}>
          {translateOptions ? t(`settings.values.${option}`) : option}
        </option>
      ))}
    </TextField>
  );
};
