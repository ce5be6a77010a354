import { Visibility, VisibilityOff } from '@mui/icons-material';
import { IconButton, InputAdornment, TextField } from '@mui/material';
import type { TSettingKey } from '@zelo/shared';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';

type TSettingTextFieldProps = {
  settingKey: TSettingKey;
  value: string;
  kind: 'text' | 'number' | 'secret';
  disabled: boolean;
  isValid: (draft: string) => boolean;
  onSave: (value: string) => void;
};

/** A free-text setting: edited locally and saved when the field loses focus or on Enter, if it changed. */
export const SettingTextField = ({ settingKey, value, kind, disabled, isValid, onSave }: TSettingTextFieldProps) => {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  const [showSecret, setShowSecret] = useState(false);

  useEffect(() => {
    setDraft(value);
  }, [value]);

  const isDraftValid = isValid(draft);

  const commit = () => {
    if (draft !== value && isDraftValid) {
      onSave(draft);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      commit();
    }
  };

  const inputType = kind === 'number' ? 'number' : kind === 'secret' && !showSecret ? 'password' : 'text';

  return (
    <TextField
      fullWidth
      size="small"
      label={t(`settings.keys.${settingKey}`)}
      type={inputType}
      value={draft}
      disabled={disabled}
      error={!isDraftValid}
      helperText={isDraftValid ? undefined : t('validation.invalid')}
      autoComplete={kind === 'secret' ? 'off' : undefined}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={onKeyDown}
      slotProps={{
        htmlInput: {
          'data-testid': `setting-${settingKey}`,
          ...(kind === 'number' ? { min: 0, step: 1, inputMode: 'numeric' } : {}),
        },
        input:
          kind === 'secret'
            ? {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton
                      size="small"
                      edge="end"
                      aria-label={t('settings.actions.showSecret')}
                      onClick={() => setShowSecret((v) => !v)}
                    >
                      {showSecret ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
                    </IconButton>
                  </InputAdornment>
                ),
              }
            : undefined,
      }}
    />
  );
};
