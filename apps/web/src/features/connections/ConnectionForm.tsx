import {
  Box,
  Button,
  Chip,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  InputAdornment,
  InputLabel,
  ListItemIcon,
  ListItemText,
  MenuItem,
  OutlinedInput,
  Select,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { CHANNEL_PROVIDERS, generateApiToken, type TConnection } from '@zelo/shared';
import { type ReactNode, useState } from 'react';
import { Controller, type FieldErrors, type Path, useForm } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { ApiError, api } from '../../api/http';
import { applyFieldErrors } from '../../components/applyFieldErrors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { fieldErrorText } from '../../components/form';
import { formResolver } from '../../components/formResolver';
import { toast, toastError } from '../../components/toast';
import { CloudApiFields } from './CloudApiFields';
import { CONNECTIONS_QUERY_KEY, upsertConnection } from './connectionsCache';
import {
  CLOUD_ADVANCED_FIELDS,
  CLOUD_FIELDS,
  formFieldOfPath,
  isAcceptableToken,
  PROVIDER_FIELDS,
  partlyEditedSecrets,
  type TConnectionForm,
  type TConnectionFormValues,
  toConnectionFormValues,
  toConnectionRequest,
  ZConnectionForm,
} from './connectionForm';
import { PROVIDER_ICONS } from './ProviderChip';
import { useOptions } from './useOptions';

const FIELDS: Path<TConnectionFormValues>[] = [
  'name',
  'provider',
  'token',
  'greetingMessage',
  'complationMessage',
  'outOfHoursMessage',
  'ratingMessage',
  'expiresInactiveMessage',
  'expiresTicket',
  'timeUseBotQueues',
  'maxUseBotQueues',
  'transferQueueId',
  'timeToTransfer',
  'closeOpenChatsAfterMinutes',
  'queueIds',
  'promptId',
  'integrationId',
  'flowIdWelcome',
  'flowIdNotPhrase',
  ...CLOUD_FIELDS.map((f) => `channelConfig.${f}` as const),
];

const MESSAGE_FIELDS = [
  'greetingMessage',
  'complationMessage',
  'outOfHoursMessage',
  'ratingMessage',
  'expiresInactiveMessage',
] as const;

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <Stack spacing={2}>
    <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 1.5 }}>
      {title}
    </Typography>
    {children}
  </Stack>
);

const idOrNull = (value: unknown) => (value === '' || value === null || value === undefined ? null : Number(value));

type TConnectionFormProps = {
  connection: TConnection | null;
  onClose: () => void;
  /** after a successful save, with the saved connection and whether it was just created */
  onSaved?: (saved: TConnection, created: boolean) => void;
};

/** The details of a 400 answer with their paths named as the form names its fields. */
const withFormPaths = (err: unknown) =>
  err instanceof ApiError && err.details
    ? { details: err.details.map((d) => ({ ...d, path: formFieldOfPath(d.path) })) }
    : err;

/** The connection editor (spec 1 §3 Connection): every field of ZConnectionBody, and the settings of its provider. */
export const ConnectionForm = ({ connection, onClose, onSaved }: TConnectionFormProps) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: queues = [] } = useOptions('/queue');
  const { data: prompts = [] } = useOptions('/prompt');
  const { data: integrations = [] } = useOptions('/queueIntegration');
  const { data: flows = [] } = useOptions('/flowbuilder');
  const [advancedOpen, setAdvancedOpen] = useState(false);
  /** a save waiting for the user to confirm the change of provider */
  const [pending, setPending] = useState<TConnectionForm | null>(null);
  const {
    control,
    register,
    handleSubmit,
    watch,
    setError,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<TConnectionFormValues, unknown, TConnectionForm>({
    resolver: formResolver(ZConnectionForm),
    defaultValues: toConnectionFormValues(connection),
  });
  const provider = watch('provider');
  const [saving, setSaving] = useState(false);

  const openAdvancedOnError = (fieldErrors: FieldErrors<TConnectionFormValues>) => {
    if (CLOUD_ADVANCED_FIELDS.some((f) => fieldErrors.channelConfig?.[f])) {
      setAdvancedOpen(true);
    }
  };

  const save = async (body: TConnectionForm) => {
    setSaving(true);
    try {
      const request = toConnectionRequest(body, connection);
      const saved = connection
        ? await api.put<TConnection>(`/whatsapp/${connection.id}`, request)
        : await api.post<TConnection>('/whatsapp', request);
      if (saved && typeof saved === 'object' && 'id' in saved) {
        queryClient.setQueryData<TConnection[]>(CONNECTIONS_QUERY_KEY, (old) => upsertConnection(old, saved));
      }
      void queryClient.invalidateQueries({ queryKey: CONNECTIONS_QUERY_KEY });
      toast.success(t('connections.saved'));
      if (onSaved && saved && typeof saved === 'object' && 'id' in saved) {
        onSaved(saved, !connection);
      } else {
        onClose();
      }
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_WAPP_GREETING_REQUIRED') {
        setError('greetingMessage', { type: 'server', message: 'greetingRequired' });
      }
      const fieldErrors: FieldErrors<TConnectionFormValues> = {};
      applyFieldErrors<TConnectionFormValues>(withFormPaths(err), FIELDS, (name, error) => {
        setError(name, error);
        if (name.startsWith('channelConfig.')) {
          fieldErrors.channelConfig = { ...fieldErrors.channelConfig, [name.slice(14)]: error };
        }
      });
      // weak, or not usable for another reason the server does not tell: the catalogue's message under the field
      if (err instanceof ApiError && err.code === 'ERR_WAPP_TOKEN_WEAK') {
        setError('token', { type: 'server', message: 'tokenWeak' });
      }
      openAdvancedOnError(fieldErrors);
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  const onSubmit = async (body: TConnectionForm) => {
    if (!isAcceptableToken(body.token ?? '', connection)) {
      setError('token', { type: 'manual', message: 'tokenWeak' });

      return;
    }
    if (body.provider === 'cloud-api') {
      const partial = partlyEditedSecrets(body.channelConfig, connection);
      if (partial.length > 0) {
        for (const field of partial) {
          setError(`channelConfig.${field}`, { type: 'manual', message: 'secretPartial' });
        }

        return;
      }
    }
    if (connection && body.provider !== connection.provider) {
      setPending(body);

      return;
    }
    await save(body);
  };

  const errorText = (name: keyof TConnectionFormValues) => {
    const message = (errors[name] as { message?: string } | undefined)?.message;
    if (message === 'greetingRequired') {
      return t('errors.ERR_WAPP_GREETING_REQUIRED');
    }
    if (message === 'tokenWeak') {
      return t('errors.ERR_WAPP_TOKEN_WEAK');
    }

    return fieldErrorText(t, errors[name] as { message?: string } | undefined);
  };

  const numberField = (
    name: 'expiresTicket' | 'timeUseBotQueues' | 'maxUseBotQueues' | 'timeToTransfer' | 'closeOpenChatsAfterMinutes',
  ) => (
    <TextField
      {...register(name)}
      type="number"
      fullWidth
      label={t(`connections.form.${name}`)}
      error={Boolean(errors[name])}
      helperText={errorText(name) ?? t(`connections.form.${name}Hint`)}
      slotProps={{ htmlInput: { min: 0, 'data-testid': `connection-${name}` } }}
    />
  );

  const optionSelect = (
    name: 'transferQueueId' | 'promptId' | 'integrationId' | 'flowIdWelcome' | 'flowIdNotPhrase',
    options: { id: number; name: string }[],
  ) => (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          label={t(`connections.form.${name}`)}
          value={field.value === null ? '' : String(field.value)}
          onChange={(e) => field.onChange(idOrNull(e.target.value))}
          onBlur={field.onBlur}
          error={Boolean(errors[name])}
          helperText={errorText(name)}
          slotProps={{ htmlInput: { 'data-testid': `connection-${name}` } }}
        >
          <MenuItem value="">
            <em>{t('connections.form.none')}</em>
          </MenuItem>
          {options.map((o) => (
            <MenuItem key={o.id} value={String(o.id)}>
              {o.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  return (
    <Box
      component="form"
      onSubmit={handleSubmit(onSubmit, openAdvancedOnError)}
      noValidate
      sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
    >
      <DialogTitle>{connection ? t('connections.form.editTitle') : t('connections.form.addTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={3}>
          <Section title={t('connections.form.general')}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
              <TextField
                {...register('name')}
                label={t('connections.form.name')}
                fullWidth
                autoFocus
                required
                error={Boolean(errors.name)}
                helperText={errorText('name')}
                slotProps={{ htmlInput: { 'data-testid': 'connection-name' } }}
              />
              <Controller
                name="provider"
                control={control}
                render={({ field }) => (
                  <TextField
                    select
                    fullWidth
                    label={t('connections.form.provider')}
                    {...field}
                    helperText={t(`connections.providerHint.${field.value}`)}
                    slotProps={{
                      htmlInput: { 'data-testid': 'connection-provider' },
                      select: {
                        renderValue: (value) => (
                          <Stack direction="row" spacing={1} alignItems="center">
                            {PROVIDER_ICONS[value as TConnectionFormValues['provider']]}
                            <span>{t(`connections.providers.${value as string}`)}</span>
                          </Stack>
                        ),
                      },
                    }}
                  >
                    {CHANNEL_PROVIDERS.map((p) => (
                      <MenuItem key={p} value={p} data-testid={`connection-provider-${p}`}>
                        <ListItemIcon>{PROVIDER_ICONS[p]}</ListItemIcon>
                        <ListItemText
                          primary={t(`connections.providers.${p}`)}
                          secondary={t(`connections.providerHint.${p}`)}
                          slotProps={{ secondary: { sx: { whiteSpace: 'normal' } } }}
                        />
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Stack>
            <Controller
              name="isDefault"
              control={control}
              render={({ field }) => (
                <FormControlLabel
                  label={t('connections.form.isDefault')}
                  control={
                    <Switch
                      checked={field.value}
                      onChange={(e) => field.onChange(e.target.checked)}
                      slotProps={{ input: { 'data-testid': 'connection-default' } as object }}
                    />
                  }
                />
              )}
            />
            <TextField
              {...register('token')}
              label={t('connections.form.token')}
              fullWidth
              error={Boolean(errors.token)}
              helperText={errorText('token') ?? t('connections.form.tokenHint')}
              slotProps={{
                htmlInput: { 'data-testid': 'connection-token', autoComplete: 'off', spellCheck: false },
                // a generated token is set from outside the input: its label must move up too
                inputLabel: watch('token') ? { shrink: true } : undefined,
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <Button
                        size="small"
                        data-testid="connection-token-generate"
                        onClick={() =>
                          setValue('token', generateApiToken(), { shouldDirty: true, shouldValidate: true })
                        }
                      >
                        {t('connections.form.generateToken')}
                      </Button>
                    </InputAdornment>
                  ),
                },
              }}
            />
          </Section>

          {PROVIDER_FIELDS[provider].length > 0 && (
            <Section title={t('connections.form.cloudApi')}>
              <CloudApiFields
                control={control}
                register={register}
                errors={errors}
                connection={connection}
                advancedOpen={advancedOpen}
                onAdvancedChange={setAdvancedOpen}
              />
            </Section>
          )}

          <Section title={t('connections.form.messages')}>
            {MESSAGE_FIELDS.map((name) => (
              <TextField
                key={name}
                {...register(name)}
                label={t(`connections.form.${name}`)}
                fullWidth
                multiline
                minRows={2}
                maxRows={8}
                error={Boolean(errors[name])}
                helperText={errorText(name) ?? t(`connections.form.${name}Hint`)}
                slotProps={{ htmlInput: { 'data-testid': `connection-${name}` } }}
              />
            ))}
          </Section>

          <Section title={t('connections.form.routing')}>
            <Controller
              name="queueIds"
              control={control}
              render={({ field }) => (
                <FormControl fullWidth>
                  <InputLabel id="connection-queues-label">{t('connections.form.queues')}</InputLabel>
                  <Select
                    labelId="connection-queues-label"
                    multiple
                    value={field.value}
                    onChange={(e) => {
                      const value = e.target.value;
                      field.onChange(typeof value === 'string' ? [] : value);
                    }}
                    onBlur={field.onBlur}
                    input={<OutlinedInput label={t('connections.form.queues')} />}
                    data-testid="connection-queues"
                    renderValue={(selected) => (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                        {selected.map((id) => {
                          const queue = queues.find((q) => q.id === id);

                          return queue ? (
                            <Chip
                              key={id}
                              size="small"
                              label={queue.name}
                              sx={{ bgcolor: queue.color, color: queue.color ? '#fff' : undefined }}
                            />
                          ) : null;
                        })}
                      </Box>
                    )}
                  >
                    {queues.length === 0 && (
                      <MenuItem disabled value={-1}>
                        {t('connections.form.noQueues')}
                      </MenuItem>
                    )}
                    {queues.map((queue) => (
                      <MenuItem key={queue.id} value={queue.id}>
                        {queue.name}
                      </MenuItem>
                    ))}
                  </Select>
                </FormControl>
              )}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
              {optionSelect('transferQueueId', queues)}
              {numberField('timeToTransfer')}
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
              {optionSelect('promptId', prompts)}
              {optionSelect('integrationId', integrations)}
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
              {optionSelect('flowIdWelcome', flows)}
              {optionSelect('flowIdNotPhrase', flows)}
            </Stack>
          </Section>

          <Section title={t('connections.form.automation')}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
              {numberField('expiresTicket')}
              {numberField('closeOpenChatsAfterMinutes')}
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
              {numberField('maxUseBotQueues')}
              {numberField('timeUseBotQueues')}
            </Stack>
          </Section>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" data-testid="connection-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={isSubmitting || saving} data-testid="connection-save">
          {connection ? t('common.save') : t('connections.form.add')}
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={pending !== null}
        title={t('connections.providerChange.title')}
        confirmLabel={t('connections.providerChange.confirm')}
        onConfirm={() => {
          if (pending) {
            void save(pending);
          }
        }}
        onClose={() => setPending(null)}
      >
        <Typography>
          {t('connections.providerChange.message', {
            name: connection?.name ?? '',
            from: connection ? t(`connections.providers.${connection.provider}`) : '',
            to: pending ? t(`connections.providers.${pending.provider}`) : '',
          })}
        </Typography>
        {connection?.provider === 'cloud-api' ? (
          <Typography sx={{ mt: 1 }} data-testid="connection-provider-change-cloud">
            {t('connections.providerChange.cloudCleared')}
          </Typography>
        ) : null}
      </ConfirmDialog>
    </Box>
  );
};
