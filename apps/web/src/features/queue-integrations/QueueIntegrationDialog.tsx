import { Key, PlayArrow } from '@mui/icons-material';
import { Button, IconButton, InputAdornment, MenuItem, TextField, Tooltip } from '@mui/material';
import {
  INTEGRATION_LANGUAGES,
  INTEGRATION_TYPES,
  type TIntegrationType,
  type TQueueIntegration,
  TYPEBOT_DEFAULTS,
  ZQueueIntegrationBody,
} from '@zelo/shared';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { FormDialog, FormTextField } from '../../components/kit';
import { errorWithDetails, toast } from '../../components/toast';
import { applyFieldErrors } from '../../components/applyFieldErrors';
import './i18n';
import { fetchFlows } from './useQueueIntegrations';

export type TIntegrationFormValues = {
  type: TIntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number | string;
  typebotDelayMessage: number | string;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotRestartMessage: string;
  typebotUnknownMessage: string;
  flowId: number | '';
  webhookSecret: string;
};

/** the form's start: the record (its secrets masked, which the server reads as "keep") or the ancestor's defaults */
export const integrationDefaults = (i: TQueueIntegration | null): TIntegrationFormValues => ({
  type: i?.type ?? 'typebot',
  name: i?.name ?? '',
  projectName: i?.type === 'dialogflow' ? i.projectName : '',
  jsonContent: i?.jsonContent ?? '',
  language: i?.language ?? 'pt-BR',
  urlN8N: i?.urlN8N ?? '',
  typebotSlug: i?.typebotSlug ?? '',
  typebotExpires: i?.typebotExpires ?? TYPEBOT_DEFAULTS.expires,
  typebotDelayMessage: i?.typebotDelayMessage ?? TYPEBOT_DEFAULTS.delayMessage,
  typebotKeywordFinish: i?.typebotKeywordFinish ?? '',
  typebotKeywordRestart: i?.typebotKeywordRestart ?? '',
  typebotRestartMessage: i?.typebotRestartMessage ?? '',
  typebotUnknownMessage: i?.typebotUnknownMessage ?? '',
  flowId: i?.flowId ?? '',
  webhookSecret: i?.webhookSecret ?? '',
});

type TForm = UseFormReturn<TIntegrationFormValues, unknown, unknown>;

const Select = ({
  form,
  name,
  label,
  options,
  testId,
}: {
  form: TForm;
  name: 'type' | 'language' | 'flowId';
  label: string;
  options: { value: string | number; label: ReactNode }[];
  testId: string;
}) => (
  <Controller
    name={name}
    control={form.control}
    render={({ field, fieldState }) => (
      <TextField
        select
        fullWidth
        label={label}
        value={field.value}
        onChange={(e) => field.onChange(e.target.value)}
        onBlur={field.onBlur}
        error={Boolean(fieldState.error)}
        slotProps={{ htmlInput: { 'data-testid': testId } }}
      >
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value} data-testid={`${testId}-option-${o.value}`}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
    )}
  />
);

/** the flow it runs, or none: then the connection's own flows (welcome, phrases, no phrase), as the ancestor's */
const FlowSelect = ({ form, label, none }: { form: TForm; label: string; none: string }) => {
  const flows = useQuery({ queryKey: ['flowbuilder', 'options'], queryFn: fetchFlows });
  const options = [{ value: '', label: none }, ...(flows.data ?? []).map((f) => ({ value: f.id, label: f.name }))];

  return <Select form={form} name="flowId" label={label} options={options} testId="integration-flowId" />;
};

/**
 * Adds or edits a queue integration (spec 3 §2.4, §3, §5): the type decides the fields — Dialogflow (project,
 * service-account JSON, language, and a test session), n8n and webhook (URL and signing key), Typebot (URL, slug
 * and its settings), flowbuilder (its flow). Secrets come masked; left masked they are kept.
 */
export const QueueIntegrationDialog = ({
  open,
  integration,
  onSaved,
  onClose,
}: {
  open: boolean;
  integration: TQueueIntegration | null;
  onSaved: (record: TQueueIntegration) => void;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [testing, setTesting] = useState(false);
  const isEdit = integration !== null;
  const k = (key: string) => t(`queueIntegrations.dialog.${key}`);

  const submit = async (body: unknown) => {
    const saved = isEdit
      ? await api.put<TQueueIntegration>(`/queueIntegration/${integration.id}`, body)
      : await api.post<TQueueIntegration>('/queueIntegration', body);
    onSaved(saved);
  };

  const test = async (form: TForm) => {
    const v = form.getValues();
    setTesting(true);
    try {
      await api.post('/queueIntegration/testSession', {
        projectName: v.projectName,
        jsonContent: v.jsonContent,
        language: v.language,
        integrationId: integration?.id ?? null,
      });
      toast.success(t('queueIntegrations.tested'));
    } catch (err) {
      // a broken key file is marked on its field, and the toast says why the test failed
      applyFieldErrors(err, ['jsonContent'], form.setError);
      toast.error(errorWithDetails(err));
    } finally {
      setTesting(false);
    }
  };

  return (
    <FormDialog<TIntegrationFormValues, unknown>
      open={open}
      onClose={onClose}
      title={isEdit ? k('editTitle') : k('addTitle')}
      schema={ZQueueIntegrationBody as never}
      defaultValues={integrationDefaults(integration)}
      onSubmit={submit}
      successMessage={isEdit ? t('queueIntegrations.edited') : t('queueIntegrations.added')}
      submitLabel={isEdit ? k('save') : k('add')}
      testId="integration"
      maxWidth="sm"
    >
      {(form) => {
        const type = form.watch('type');
        const text = (name: keyof TIntegrationFormValues, label: string, extra: object = {}) => (
          <FormTextField form={form} name={name} label={label} testId={`integration-${name}`} {...extra} />
        );
        return (
          <>
            <Select
              form={form}
              name="type"
              label={k('type')}
              testId="integration-type"
              options={INTEGRATION_TYPES.map((v) => ({ value: v, label: t(`queueIntegrations.types.${v}`) }))}
            />
            {text('name', k('name'), { required: true, autoFocus: true })}
            {type === 'dialogflow' && (
              <>
                <Select
                  form={form}
                  name="language"
                  label={k('language')}
                  testId="integration-language"
                  options={INTEGRATION_LANGUAGES.map((v) => ({ value: v, label: v }))}
                />
                {text('projectName', k('projectName'), { required: true })}
                {text('jsonContent', k('jsonContent'), {
                  required: true,
                  multiline: true,
                  minRows: 3,
                  maxRows: 8,
                  helperText: integration?.jsonContent ? k('jsonKept') : undefined,
                })}
                <Button
                  variant="outlined"
                  startIcon={<PlayArrow />}
                  disabled={testing}
                  onClick={() => test(form as TForm)}
                  data-testid="integration-test"
                >
                  {k('test')}
                </Button>
              </>
            )}
            {(type === 'n8n' || type === 'webhook') && (
              <>
                {text('urlN8N', k('url'), { required: true, placeholder: 'https://' })}
                {text('webhookSecret', k('webhookSecret'), {
                  helperText: k('webhookSecretHint'),
                  slotProps: {
                    input: {
                      endAdornment: (
                        <InputAdornment position="end">
                          <Tooltip title={k('generate')}>
                            <IconButton
                              aria-label={k('generate')}
                              onClick={() => form.setValue('webhookSecret', crypto.randomUUID().replaceAll('-', ''))}
                              data-testid="integration-generate-secret"
                            >
                              <Key />
                            </IconButton>
                          </Tooltip>
                        </InputAdornment>
                      ),
                    },
                  },
                })}
              </>
            )}
            {type === 'typebot' && (
              <>
                {text('urlN8N', k('typebotUrl'), { required: true, placeholder: 'https://' })}
                {text('typebotSlug', k('typebotSlug'), { required: true })}
                {text('typebotExpires', k('typebotExpires'), { type: 'number' })}
                {text('typebotDelayMessage', k('typebotDelayMessage'), { type: 'number' })}
                {text('typebotKeywordFinish', k('typebotKeywordFinish'))}
                {text('typebotKeywordRestart', k('typebotKeywordRestart'))}
                {text('typebotUnknownMessage', k('typebotUnknownMessage'))}
                {text('typebotRestartMessage', k('typebotRestartMessage'))}
              </>
            )}
            {type === 'flowbuilder' && (
              <FlowSelect form={form as TForm} label={k('flow')} none={k('connectionFlows')} />
            )}
          </>
        );
      }}
    </FormDialog>
  );
};
