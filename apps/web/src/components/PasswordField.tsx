import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { IconButton, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { forwardRef, useState } from 'react';
import { useTranslation } from '../i18n/useTranslation';

type PasswordFieldProps = Omit<TextFieldProps, 'type'> & { testId?: string };

/** A password input with a show/hide toggle (`<testId>-toggle`). */
export const PasswordField = forwardRef<HTMLInputElement, PasswordFieldProps>(({ testId, ...props }, ref) => {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const label = t(visible ? 'common.hidePassword' : 'common.showPassword');

  return (
    <TextField
      {...props}
      inputRef={ref}
      type={visible ? 'text' : 'password'}
      slotProps={{
        htmlInput: { 'data-testid': testId },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={label}
                onClick={() => setVisible((v) => !v)}
                edge="end"
                data-testid={testId ? `${testId}-toggle` : undefined}
              >
                {visible ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
});
PasswordField.displayName = 'PasswordField';
