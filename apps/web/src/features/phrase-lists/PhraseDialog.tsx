import { FormControlLabel, MenuItem, Switch, TextField } from '@mui/material';
import { type TFlowCampaign, type TFlowCampaignBody, V, ZFlowCampaignBody, zId } from '@zelo/shared';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { z } from 'zod';
import { fieldErrorText } from '../../components/form';
import { FormDialog, FormTextField } from '../../components/kit';
import type { TOption } from '../connections/useOptions';
import './i18n';
import { savePhrase } from './usePhraseLists';

/** a select's value: required (highlighted when empty), then an id */
const zChosen = z
  .union([z.number(), z.string({ error: V.required }).min(1, V.required)], { error: V.required })
  .pipe(zId);
export const ZPhraseForm = ZFlowCampaignBody.extend({ flowId: zChosen, whatsappId: zChosen });

type TPhraseFormValues = { name: string; flowId: string; whatsappId: string; phrase: string; status: boolean };

type TPhraseDialogProps = {
  open: boolean;
  /** null adds one */
  campaign: TFlowCampaign | null;
  flows: TOption[];
  connections: (TOption & { status?: string })[];
  onSaved: (record: TFlowCampaign) => void;
  onClose: () => void;
};

/** Adds or edits a phrase campaign (spec 3 §2.6, §5): name, connection, flow and phrase required; active. */
export const PhraseDialog = ({ open, campaign, flows, connections, onSaved, onClose }: TPhraseDialogProps) => {
  const { t } = useTranslation();
  const isEdit = campaign !== null;
  const select = (
    form: UseFormReturn<TPhraseFormValues, unknown, TFlowCampaignBody>,
    name: 'flowId' | 'whatsappId',
    label: string,
    options: (TOption & { status?: string })[],
  ) => (
    <Controller
      name={name}
      control={form.control}
      render={({ field, fieldState }) => (
        <TextField
          select
          fullWidth
          required
          label={label}
          value={field.value}
          onChange={(e) => field.onChange(e.target.value)}
          onBlur={field.onBlur}
          error={Boolean(fieldState.error)}
          helperText={fieldErrorText(t, fieldState.error)}
          slotProps={{ htmlInput: { 'data-testid': `phrase-${name}` } }}
        >
          {options.map((o) => (
            <MenuItem key={o.id} value={String(o.id)} data-testid={`phrase-${name}-option-${o.id}`}>
              {o.name}
              {o.status === 'CONNECTED' ? ` (${t('phraseLists.dialog.online')})` : ''}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  return (
    <FormDialog<TPhraseFormValues, TFlowCampaignBody>
      open={open}
      onClose={onClose}
      title={isEdit ? t('phraseLists.dialog.editTitle') : t('phraseLists.dialog.addTitle')}
      schema={ZPhraseForm}
      defaultValues={{
        name: campaign?.name ?? '',
        flowId: campaign ? String(campaign.flowId) : '',
        whatsappId: campaign?.whatsappId ? String(campaign.whatsappId) : '',
        phrase: campaign?.phrase ?? '',
        status: campaign?.status ?? true,
      }}
      onSubmit={async (body) => onSaved(await savePhrase(campaign?.id ?? null, body))}
      successMessage={isEdit ? t('phraseLists.updated') : t('phraseLists.created')}
      submitLabel={isEdit ? t('common.save') : t('phraseLists.dialog.add')}
      testId="phrase"
    >
      {(form) => (
        <>
          <FormTextField
            form={form}
            name="name"
            label={t('phraseLists.dialog.name')}
            required
            autoFocus
            testId="phrase-name"
          />
          {select(form, 'whatsappId', t('phraseLists.dialog.connection'), connections)}
          {select(form, 'flowId', t('phraseLists.dialog.flow'), flows)}
          <FormTextField
            form={form}
            name="phrase"
            label={t('phraseLists.dialog.phrase')}
            helperText={t('phraseLists.dialog.phraseHint')}
            required
            testId="phrase-phrase"
          />
          {isEdit && (
            <Controller
              name="status"
              control={form.control}
              render={({ field }) => (
                <FormControlLabel
                  label={t('phraseLists.dialog.status')}
                  control={
                    <Switch
                      checked={Boolean(field.value)}
                      onChange={(e) => field.onChange(e.target.checked)}
                      slotProps={{ input: { 'data-testid': 'phrase-status' } as object }}
                    />
                  }
                />
              )}
            />
          )}
        </>
      )}
    </FormDialog>
  );
};
