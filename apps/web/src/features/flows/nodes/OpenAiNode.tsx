import Psychology from '@mui/icons-material/Psychology';
import { Autocomplete, MenuItem, Stack, TextField } from '@mui/material';
import { PROMPT_MODELS } from '@zelo/shared';
import { Controller } from 'react-hook-form';
import { useTranslation } from '../../../i18n/useTranslation';
import { FormTextField } from '../../../components/kit';
import { fieldErrorText } from '../../../components/form';
import { PasswordField } from '../../../components/PasswordField';
import { NodeFormDialog } from './NodeFormDialog';
import { NodeText } from './NodeShell';
import { integrationOf, OPENAI_DEFAULTS, openAiData, type TOpenAiForm, text, VOICES, ZOpenAiForm } from './nodeForms';
import type { TNodeData, TNodeDialogProps, TNodeSpec } from './nodeSpec';

/** A key the server sent back masked: saving it unchanged keeps the stored key. */
export const isMaskedKey = (key: string) => /[*•]{3,}/.test(key);

const OpenAiBody = ({ data }: { data: TNodeData }) => {
  const ai = integrationOf(data);

  return <NodeText lines={2}>{text(ai.name)}</NodeText>;
};

/** The voice's name as shown: "Francisca" for `pt-BR-FranciscaNeural`. */
const voiceName = (voice: string) => voice.replace(/^pt-BR-/, '').replace(/Neural$/, '');

type TOpenAiValues = Record<keyof TOpenAiForm, string>;
const NUMBER_FIELDS = ['temperature', 'maxTokens', 'maxMessages'] as const;

/**
 * OpenAI dialog (spec 3 §2.9): name, API key (hidden, with a show/hide toggle; the server sends it back masked and
 * a masked key saved unchanged keeps the stored one), the provider as the prompts take it (base URL of any
 * OpenAI-compatible API, empty = OpenAI's; the model's id, free text with the prompts' suggestions), prompt (10 rows), voice, voice key and region, temperature,
 * max tokens and max messages.
 */
const OpenAiDialog = ({ data, onSubmit, onClose }: TNodeDialogProps) => {
  const { t } = useTranslation();
  const ai = integrationOf(data);
  const defaults: TOpenAiValues = {
    name: text(ai.name),
    apiKey: text(ai.apiKey),
    baseUrl: text(ai.baseUrl),
    model: text(ai.model || OPENAI_DEFAULTS.model),
    prompt: text(ai.prompt),
    voice: text(ai.voice || OPENAI_DEFAULTS.voice),
    voiceKey: text(ai.voiceKey),
    voiceRegion: text(ai.voiceRegion),
    temperature: text(ai.temperature ?? OPENAI_DEFAULTS.temperature),
    maxTokens: text(ai.maxTokens ?? OPENAI_DEFAULTS.maxTokens),
    maxMessages: text(ai.maxMessages ?? OPENAI_DEFAULTS.maxMessages),
  };

  return (
    <NodeFormDialog<TOpenAiValues, TOpenAiForm>
      type="openai"
      isEdit={data !== null}
      titles={{ add: t('flows.dialogs.openai.addTitle'), edit: t('flows.dialogs.openai.editTitle') }}
      schema={ZOpenAiForm}
      defaultValues={defaults}
      toData={(v) => openAiData(v, ai.queueId)}
      onSubmit={onSubmit}
      onClose={onClose}
      maxWidth="md"
    >
      {(form) => {
        const keyError = form.formState.errors.apiKey;
        const key = form.watch('apiKey');

        return (
          <>
            <FormTextField
              form={form}
              name="name"
              label={t('flows.dialogs.openai.name')}
              required
              autoFocus
              testId="flow-openai-name"
            />
            <PasswordField
              {...form.register('apiKey')}
              fullWidth
              required
              autoComplete="off"
              label={t('flows.dialogs.openai.apiKey')}
              error={Boolean(keyError)}
              helperText={
                fieldErrorText(t, keyError) ?? (isMaskedKey(key) ? t('flows.dialogs.openai.keyKept') : undefined)
              }
              testId="flow-openai-key"
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <FormTextField
                form={form}
                name="baseUrl"
                size="small"
                label={t('flows.dialogs.openai.baseUrl')}
                helperText={t('flows.dialogs.openai.baseUrlHint')}
                testId="flow-openai-baseUrl"
              />
              <Controller
                name="model"
                control={form.control}
                render={({ field }) => (
                  <Autocomplete
                    freeSolo
                    fullWidth
                    options={PROMPT_MODELS.map((m) => m.value)}
                    value={field.value ?? ''}
                    onChange={(_, value) => field.onChange(value ?? '')}
                    onInputChange={(_, value) => field.onChange(value)}
                    renderInput={(params) => (
                      <TextField
                        {...params}
                        size="small"
                        label={t('flows.dialogs.openai.model')}
                        slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'flow-openai-model' } }}
                      />
                    )}
                  />
                )}
              />
            </Stack>
            <FormTextField
              form={form}
              name="prompt"
              label={t('flows.dialogs.openai.prompt')}
              multiline
              rows={10}
              required
              testId="flow-openai-prompt"
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Controller
                name="voice"
                control={form.control}
                render={({ field }) => (
                  <TextField select fullWidth size="small" label={t('flows.dialogs.openai.voice')} {...field}>
                    {VOICES.map((v) => (
                      <MenuItem key={v} value={v}>
                        {v === 'texto' ? t('flows.dialogs.openai.voiceText') : voiceName(v)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              <FormTextField form={form} name="voiceKey" size="small" label={t('flows.dialogs.openai.voiceKey')} />
              <FormTextField
                form={form}
                name="voiceRegion"
                size="small"
                label={t('flows.dialogs.openai.voiceRegion')}
              />
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {NUMBER_FIELDS.map((name) => (
                <FormTextField
                  key={name}
                  form={form}
                  name={name}
                  type="number"
                  size="small"
                  label={t(`flows.dialogs.openai.${name}`)}
                  slotProps={{ htmlInput: name === 'temperature' ? { step: 0.1, min: 0, max: 2 } : { min: 1 } }}
                />
              ))}
            </Stack>
          </>
        );
      }}
    </NodeFormDialog>
  );
};

export const openAiSpec: TNodeSpec = {
  type: 'openai',
  Icon: Psychology,
  color: '#10a37f',
  Body: OpenAiBody,
  Dialog: OpenAiDialog,
  inPalette: true,
};
