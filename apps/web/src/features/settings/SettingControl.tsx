import type { TSettingKey } from '@zelo/shared';
import { SettingSelect } from './SettingSelect';
import { SettingTextField } from './SettingTextField';
import { isValidSettingValue, readSecretToken, settingKind, timeZoneOptions, writeSecretToken } from './settingKinds';

type TSettingControlProps = {
  settingKey: TSettingKey;
  value: string;
  disabled: boolean;
  onSave: (key: TSettingKey, value: string) => void;
};

/** One control per setting key: a select for enumerations, a text, number or secret field for the rest. */
export const SettingControl = ({ settingKey, value, disabled, onSave }: TSettingControlProps) => {
  const kind = settingKind(settingKey);
  const save = (next: string) => onSave(settingKey, next);

  switch (kind.type) {
    case 'enum':
      return (
        <SettingSelect
          settingKey={settingKey}
          value={value}
          options={kind.options}
          translateOptions
          disabled={disabled}
          onSave={save}
        />
      );
    case 'timezone':
      return (
        <SettingSelect
          settingKey={settingKey}
          value={value}
          options={timeZoneOptions(value)}
          translateOptions={false}
          disabled={disabled}
          onSave={save}
        />
      );
    case 'secret':
      return (
        <SettingTextField
          settingKey={settingKey}
          kind="secret"
          value={readSecretToken(value)}
          disabled={disabled}
          isValid={(draft) => isValidSettingValue(settingKey, writeSecretToken(draft))}
          onSave={(token) => save(writeSecretToken(token))}
        />
      );
    case 'number':
    case 'text':
      return (
        <SettingTextField
          settingKey={settingKey}
          kind={kind.type}
          value={value}
          disabled={disabled}
          isValid={(draft) => isValidSettingValue(settingKey, draft)}
          onSave={save}
        />
      );
  }
};
