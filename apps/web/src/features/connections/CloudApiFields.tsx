import ContentCopy from '@mui/icons-material/ContentCopy';
import ExpandMore from '@mui/icons-material/ExpandMore';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  IconButton,
  InputAdornment,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import type { TConnection } from '@zelo/shared';
import { useRef } from 'react';
import { type Control, Controller, type FieldErrors, type UseFormRegister, useWatch } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { fieldErrorText } from '../../components/form';
import { PasswordField } from '../../components/PasswordField';
import { toast } from '../../components/toast';
import {
  CLOUD_ADVANCED_FIELDS,
  CLOUD_DEFAULTS,
  CLOUD_ID_FIELDS,
  CLOUD_SECRET_FIELDS,
  type TCloudField,
  type TConnectionForm,
  type TConnectionFormValues,
  isMaskedSecret,
  maskedEnding,
  webhookUrl,
} from './connectionForm';

type TCloudApiFieldsProps = {
  control: Control<TConnectionFormValues, unknown, TConnectionForm>;
  register: UseFormRegister<TConnectionFormValues>;
  errors: FieldErrors<TConnectionFormValues>;
  /** the saved connection (its id makes the webhook URL); null while adding */
  connection: TConnection | null;
  advancedOpen: boolean;
  onAdvancedChange: (open: boolean) => void;
};

/** Copies with the Clipboard API, or through a selected input where that API is missing (plain http). */
const copyText = async (value: string, input: HTMLInputElement | null) => {
  try {
    await navigator.clipboard.writeText(value);

    return true;
  } catch {
    if (!input) {
      return false;
    }
    input.select();

    return document.execCommand('copy');
  }
};

/**
 * The settings of a Cloud API connection: Meta's ids, the secrets (password inputs that keep the saved, masked
 * value unless retyped), Graph URL and version under "advanced", and the webhook URL to paste into Meta's app.
 */
export const CloudApiFields = ({
  control,
  register,
  errors,
  connection,
  advancedOpen,
  onAdvancedChange,
}: TCloudApiFieldsProps) => {
  const { t } = useTranslation();
  const $webhook = useRef<HTMLInputElement>(null);
  const fieldError = (name: TCloudField) => errors.channelConfig?.[name];
  const typed = useWatch({ control, name: 'channelConfig' });
  const errorOf = (name: TCloudField) => {
    const error = fieldError(name);
    if (error?.message === 'secretPartial') {
      return t('connections.form.cloud.secretPartial');
    }
    // the ids' pattern also refuses an empty one: say what is missing rather than "invalid"
    if (error?.message === 'invalid' && !String(typed?.[name] ?? '').trim()) {
      return t('validation.required');
    }

    return fieldErrorText(t, error);
  };
  const hint = (name: TCloudField) => t(`connections.form.cloud.${name}Hint`, CLOUD_DEFAULTS);
  const url = connection ? webhookUrl(window.location.origin, connection.id) : '';

  const onCopy = async () => {
    if (await copyText(url, $webhook.current)) {
      toast.success(t('connections.form.cloud.copied'));
    }
  };

  const plainField = (name: TCloudField, extra: { inputMode?: 'numeric' } = {}) => (
    <TextField
      {...register(`channelConfig.${name}`)}
      label={t(`connections.form.cloud.${name}`)}
      fullWidth
      required={!CLOUD_ADVANCED_FIELDS.includes(name as (typeof CLOUD_ADVANCED_FIELDS)[number])}
      error={Boolean(fieldError(name))}
      helperText={errorOf(name) ?? hint(name)}
      slotProps={{
        htmlInput: { 'data-testid': `connection-cloud-${name}`, autoComplete: 'off', spellCheck: false, ...extra },
      }}
    />
  );

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="connection-cloud-fields">
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
        {CLOUD_ID_FIELDS.map((name) => (
          <Box key={name}>{plainField(name, { inputMode: 'numeric' })}</Box>
        ))}
        {CLOUD_SECRET_FIELDS.map((name) => (
          <Controller
            key={name}
            name={`channelConfig.${name}`}
            control={control}
            render={({ field }) => {
              const isSaved = isMaskedSecret(field.value);
              const ending = maskedEnding(field.value);

              return (
                <PasswordField
                  {...field}
                  label={t(`connections.form.cloud.${name}`)}
                  fullWidth
                  required
                  autoComplete="new-password"
                  // a saved secret is replaced as a whole: focusing or clicking it selects it all, so typing
                  // overwrites it (the mouse-up would otherwise put the caret inside the mask)
                  onFocus={(e) => {
                    if (isSaved) {
                      e.target.select();
                    }
                  }}
                  onMouseUp={(e) => {
                    const input = e.target as HTMLInputElement;
                    if (isSaved && input.tagName === 'INPUT') {
                      e.preventDefault();
                      input.select();
                    }
                  }}
                  error={Boolean(fieldError(name))}
                  helperText={
                    errorOf(name) ?? (ending ? t('connections.form.cloud.secretKept', { ending }) : hint(name))
                  }
                  testId={`connection-cloud-${name}`}
                />
              );
            }}
          />
        ))}
      </Box>

      <Accordion
        expanded={advancedOpen}
        onChange={(_, open) => onAdvancedChange(open)}
        disableGutters
        variant="outlined"
        sx={{ '&::before': { display: 'none' } }}
      >
        <AccordionSummary expandIcon={<ExpandMore />} data-testid="connection-cloud-advanced">
          <Typography variant="body2">{t('connections.form.cloud.advanced')}</Typography>
        </AccordionSummary>
        <AccordionDetails>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr' }, gap: 2 }}>
            {CLOUD_ADVANCED_FIELDS.map((name) => (
              <Box key={name}>{plainField(name)}</Box>
            ))}
          </Box>
        </AccordionDetails>
      </Accordion>

      {connection ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          <TextField
            label={t('connections.form.cloud.webhookUrl')}
            value={url}
            fullWidth
            inputRef={$webhook}
            onFocus={(e) => e.target.select()}
            slotProps={{
              htmlInput: { readOnly: true, 'data-testid': 'connection-cloud-webhook-url' },
              input: {
                sx: { fontFamily: 'monospace', fontSize: 14 },
                endAdornment: (
                  <InputAdornment position="end">
                    <Tooltip title={t('connections.form.cloud.copy')}>
                      <IconButton
                        edge="end"
                        aria-label={t('connections.form.cloud.copy')}
                        onClick={() => void onCopy()}
                        data-testid="connection-cloud-webhook-copy"
                      >
                        <ContentCopy fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </InputAdornment>
                ),
              },
            }}
          />
          <Alert severity="info" variant="outlined" data-testid="connection-cloud-webhook-hint">
            {t('connections.form.cloud.webhookHint')}
          </Alert>
        </Box>
      ) : (
        <Alert severity="info" variant="outlined" data-testid="connection-cloud-webhook-later">
          {t('connections.form.cloud.webhookAfterSave')}
        </Alert>
      )}
    </Box>
  );
};
