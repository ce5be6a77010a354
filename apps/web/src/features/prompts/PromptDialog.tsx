import { Visibility, VisibilityOff } from '@mui/icons-material';
import { Autocomplete, IconButton, InputAdornment, Stack, TextField, Tooltip, Typography } from '@mui/material';
import {
  AI_VOICES,
  DEFAULT_PROMPT_MODEL,
  PROMPT_LIMITS,
  type TPrompt,
  type TPromptBody,
  type TPromptInput,
  ZPromptBody,
} from '@zelo/shared';
import { useState } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { FormDialog, FormTextField } from '../../components/kit';
import { fieldErrorText } from '../../components/form';
import { useOptions } from '../connections/useOptions';
import './i18n';
import { savePrompt, useModelSuggestions } from './usePrompts';

type TPromptFormValues = {
  name: string;
  prompt: string;
  model: string;
  maxTokens: number | string;
  temperature: number | string;
  apiKey: string;
  queueId: number | string;
  maxMessages: number | string;
  baseUrl: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
};
type TForm = UseFormReturn<TPromptFormValues, unknown, TPromptInput>;

/** the form's values for a prompt (its keys as the server shows them: masked), or the spec's defaults */
export const promptFormValues = (prompt: TPrompt | null): TPromptFormValues => ({
  name: prompt?.name ?? '',
  prompt: prompt?.prompt ?? '',
  model: prompt?.model ?? DEFAULT_PROMPT_MODEL,
  maxTokens: prompt?.maxTokens ?? PROMPT_LIMITS.defaults.maxTokens,
  temperature: prompt?.temperature ?? PROMPT_LIMITS.defaults.temperature,
  apiKey: prompt?.apiKey ?? '',
  queueId: prompt?.queueId ?? '',
  maxMessages: prompt?.maxMessages ?? PROMPT_LIMITS.defaults.maxMessages,
  baseUrl: prompt?.baseUrl ?? '',
  voice: prompt?.voice ?? 'texto',
  voiceKey: prompt?.voiceKey ?? '',
  voiceRegion: prompt?.voiceRegion ?? '',
});

/** a voice's name as shown: `pt-BR-FranciscaNeural` → Francisca */
export const voiceLabel = (voice: string) => voice.replace(/^pt-BR-/, '').replace(/Neural$/, '');

/**
 * What the model field keeps from an input change: what the user typed or cleared. The Autocomplete also
 * writes the chosen suggestion's display text ("GPT 4.0 (gpt-4o-mini)") into the input ("reset"); that is not
 * the model — the choice itself (its id) arrives through onChange.
 */
export const modelFromInput = (value: string, reason: string): string | undefined =>
  reason === 'reset' ? undefined : value;

const ModelField = ({ form, promptId }: { form: TForm; promptId: number | null }) => {
  const { t } = useTranslation();
  const baseUrl = form.watch('baseUrl');
  const apiKey = form.watch('apiKey');
  const { data } = useModelSuggestions(baseUrl.trim(), apiKey.trim(), promptId);
  const options = data?.models ?? [];
  const error = form.getFieldState('model', form.formState).error;

  return (
    <Controller
      name="model"
      control={form.control}
      render={({ field }) => (
        <Autocomplete
          freeSolo
          options={options.map((m) => m.value)}
          getOptionLabel={(value) => {
            const known = options.find((m) => m.value === value);
            return known && known.label !== value ? `${known.label} (${value})` : value;
          }}
          value={field.value}
          inputValue={field.value}
          onInputChange={(_e, value, reason) => {
            const typed = modelFromInput(value, reason);
            if (typed !== undefined) field.onChange(typed);
          }}
          onChange={(_e, value) => field.onChange(value ?? '')}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('prompts.dialog.model')}
              required
              error={Boolean(error)}
              helperText={fieldErrorText(t, error) ?? t('prompts.dialog.modelHint')}
              slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'prompt-model' } }}
            />
          )}
        />
      )}
    />
  );
};

const QueueField = ({ form }: { form: TForm }) => {
  const { t } = useTranslation();
  const { data: queues = [] } = useOptions('/queue');
  const error = form.getFieldState('queueId', form.formState).error;

  return (
    <Controller
      name="queueId"
      control={form.control}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          required
          label={t('prompts.dialog.queue')}
          value={field.value === '' ? '' : String(field.value)}
          onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
          onBlur={field.onBlur}
          error={Boolean(error)}
          helperText={fieldErrorText(t, error) ?? t('prompts.dialog.queueHint')}
          slotProps={{
            select: { native: true },
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': 'prompt-queue' },
          }}
        >
          <option value="" />
          {queues.map((q) => (
            <option key={q.id} value={String(q.id)}>
              {q.name}
            </option>
          ))}
        </TextField>
      )}
    />
  );
};

const SecretField = ({
  form,
  name,
  label,
  testId,
}: {
  form: TForm;
  name: 'apiKey' | 'voiceKey';
  label: string;
  testId: string;
}) => {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);

  return (
    <FormTextField
      form={form}
      name={name}
      label={label}
      type={shown ? 'text' : 'password'}
      required={name === 'apiKey'}
      autoComplete="off"
      helperText={t('prompts.dialog.apiKeyHint')}
      testId={testId}
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={shown ? t('prompts.dialog.hideKey') : t('prompts.dialog.showKey')}>
                <IconButton
                  aria-label={shown ? t('prompts.dialog.hideKey') : t('prompts.dialog.showKey')}
                  onClick={() => setShown((s) => !s)}
                  edge="end"
                >
                  {shown ? <VisibilityOff /> : <Visibility />}
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
};

type TPromptDialogProps = {
  open: boolean;
  /** null adds one */
  prompt: TPrompt | null;
  onSaved: (record: TPrompt) => void;
  onClose: () => void;
};

/**
 * Adds or edits an AI prompt (spec 3 §2.3, §5; the ancestor's PromptModal): name, prompt text, the model as
 * free text with suggestions, an optional OpenAI-compatible base URL, the API key (masked; left masked it is
 * kept), the sector for handovers, max tokens, temperature, history size and the voice fields.
 */
export const PromptDialog = ({ open, prompt, onSaved, onClose }: TPromptDialogProps) => {
  const { t } = useTranslation();
  const isEdit = prompt !== null;

  const submit = async (body: TPromptInput) => {
    onSaved(await savePrompt(prompt?.id ?? null, body as TPromptBody));
  };

  return (
    <FormDialog<TPromptFormValues, TPromptInput>
      open={open}
      onClose={onClose}
      title={isEdit ? t('prompts.dialog.editTitle') : t('prompts.dialog.addTitle')}
      schema={ZPromptBody}
      defaultValues={promptFormValues(prompt)}
      onSubmit={submit}
      successMessage={t('prompts.saved')}
      submitLabel={isEdit ? t('prompts.dialog.save') : t('prompts.dialog.add')}
      testId="prompt"
      maxWidth="md"
    >
      {(form) => (
        <>
          <FormTextField
            form={form}
            name="name"
            label={t('prompts.dialog.name')}
            required
            autoFocus
            testId="prompt-name"
          />
          <FormTextField
            form={form}
            name="prompt"
            label={t('prompts.dialog.prompt')}
            helperText={t('prompts.dialog.promptHint')}
            required
            multiline
            minRows={7}
            maxRows={16}
            testId="prompt-text"
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <ModelField form={form} promptId={prompt?.id ?? null} />
            <FormTextField
              form={form}
              name="baseUrl"
              label={t('prompts.dialog.baseUrl')}
              helperText={t('prompts.dialog.baseUrlHint')}
              placeholder="https://api.openai.com/v1"
              testId="prompt-base-url"
            />
          </Stack>
          <SecretField form={form} name="apiKey" label={t('prompts.dialog.apiKey')} testId="prompt-api-key" />
          <QueueField form={form} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField
              form={form}
              name="maxTokens"
              label={t('prompts.dialog.maxTokens')}
              type="number"
              required
              testId="prompt-max-tokens"
            />
            <FormTextField
              form={form}
              name="temperature"
              label={t('prompts.dialog.temperature')}
              type="number"
              required
              slotProps={{ htmlInput: { step: 0.1, min: 0, max: 1 } }}
              testId="prompt-temperature"
            />
            <FormTextField
              form={form}
              name="maxMessages"
              label={t('prompts.dialog.maxMessages')}
              type="number"
              required
              testId="prompt-max-messages"
            />
          </Stack>
          <Typography variant="caption" color="text.secondary">
            {t('prompts.dialog.voiceHint')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField
              form={form}
              name="voice"
              label={t('prompts.dialog.voice')}
              select
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
              testId="prompt-voice"
            >
              {AI_VOICES.map((v) => (
                <option key={v} value={v}>
                  {v === 'texto' ? t('prompts.dialog.voiceText') : voiceLabel(v)}
                </option>
              ))}
            </FormTextField>
            <SecretField form={form} name="voiceKey" label={t('prompts.dialog.voiceKey')} testId="prompt-voice-key" />
            <FormTextField
              form={form}
              name="voiceRegion"
              label={t('prompts.dialog.voiceRegion')}
              testId="prompt-voice-region"
            />
          </Stack>
        </>
      )}
    </FormDialog>
  );
};
