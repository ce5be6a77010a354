import { PlayArrow, Stop } from '@mui/icons-material';
import { Alert, Box, Button, Chip, MenuItem, Stack, Tab, Tabs, TextField, Tooltip, Typography } from '@mui/material';
import { CAMPAIGN_MESSAGE_FIELDS, type TCampaign, type TCampaignBody, ZCampaignBody } from '@zelo/shared';
import { useRef, useState } from 'react';
import { Controller, type Path, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { FormDialog, FormTextField } from '../../components/kit';
import { toast } from '../../components/toast';
import {
  bodyToSave,
  withInstant,
  campaignEditability,
  canCancel,
  canRestart,
  fieldLocked,
  insertVariable,
  messageVariables,
  type TEditability,
  toLocalInput,
} from './campaignLogic';
import { CampaignStatusChip } from './CampaignStatusChip';
import './i18n';
import { MediaAttachment, type TAttachmentChange } from '../../components/MediaAttachment';
import { campaignAction, saveCampaign, type TOption, useCampaignOptions } from './useCampaigns';
import { useCampaignSettings } from './useCampaignSettings';

type TMessageField = (typeof CAMPAIGN_MESSAGE_FIELDS)[number];
type TLink = number | '';
export type TCampaignFormValues = {
  name: string;
  scheduledAt: string;
  whatsappId: TLink;
  contactListId: TLink;
  tagListId: TLink;
  fileListId: TLink;
} & Record<TMessageField, string>;

/** the five variants' starting texts, one per field of `CAMPAIGN_MESSAGE_FIELDS` */
const messageValues = (c: TCampaign | null) =>
  Object.fromEntries(CAMPAIGN_MESSAGE_FIELDS.map((field) => [field, c?.[field] ?? ''])) as Record<
    TMessageField,
    string
  >;

/** The form's starting values: the campaign's, or empty ones ("Nenhuma" for every link). */
export const campaignFormValues = (c: TCampaign | null): TCampaignFormValues => ({
  name: c?.name ?? '',
  ...messageValues(c),
  scheduledAt: toLocalInput(c?.scheduledAt),
  whatsappId: c?.whatsappId ?? '',
  contactListId: c?.contactListId ?? '',
  tagListId: c?.tagId ?? c?.tagListId ?? '',
  fileListId: c?.fileListId ?? '',
});

type TCampaignDialogProps = {
  open: boolean;
  /** null adds one */
  campaign: TCampaign | null;
  /** each record the server answers (after the save, its file, a cancel or a restart) */
  onSaved: (record: TCampaign) => void;
  onClose: () => void;
};

type TSelectProps = {
  form: UseFormReturn<TCampaignFormValues, unknown, TCampaignBody>;
  name: 'whatsappId' | 'contactListId' | 'tagListId' | 'fileListId';
  label: string;
  options: TOption[];
  noneLabel: string;
  disabled: boolean;
  /** the campaign's own link (id and name), shown when the list lacks it */
  stored?: TOption | null;
};

const LinkSelect = ({ form, name, label, options, noneLabel, disabled, stored }: TSelectProps) => (
  <Controller
    name={name}
    control={form.control}
    render={({ field, fieldState }) => {
      const value = field.value;
      // a stored link to a record the list lacks (deleted, or the list not loaded yet) still shows
      const shown =
        value !== '' && !options.some((o) => o.id === value)
          ? [...options, { id: value, name: stored?.id === value ? stored.name : `#${value}` }]
          : options;

      return (
        <TextField
          select
          fullWidth
          size="small"
          label={label}
          value={value}
          onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
          onBlur={field.onBlur}
          disabled={disabled}
          error={Boolean(fieldState.error)}
          slotProps={{
            htmlInput: { 'data-testid': `campaign-${name}` },
            select: { displayEmpty: true },
            inputLabel: { shrink: true },
          }}
        >
          <MenuItem value="">{noneLabel}</MenuItem>
          {shown.map((o) => (
            <MenuItem key={o.id} value={o.id} data-testid={`campaign-${name}-option-${o.id}`}>
              {o.name}
            </MenuItem>
          ))}
        </TextField>
      );
    }}
  />
);

/**
 * Adds or edits a campaign (spec 2 §3–§5): name, connection, contact list and/or tag, file list, start time, five
 * message variants with the variables helper, and one attachment. Fields are locked per the editability rules
 * with the reason shown; a running campaign can be cancelled and a cancelled one restarted from here. Mount it
 * afresh (a new `key`) for each opening.
 */
export const CampaignDialog = ({ open, campaign, onSaved, onClose }: TCampaignDialogProps) => {
  const { t } = useTranslation();
  const options = useCampaignOptions();
  const settings = useCampaignSettings();
  const messageInputs = useRef<Partial<Record<TMessageField, HTMLTextAreaElement | HTMLInputElement | null>>>({});
  const [current, setCurrent] = useState<TCampaign | null>(campaign);
  const [messageTab, setMessageTab] = useState(0);
  const [attachment, setAttachment] = useState<TAttachmentChange>({ kind: 'keep' });
  const [busy, setBusy] = useState(false);
  // a save that created the record but failed on its file: the retry edits that record
  const [createdId, setCreatedId] = useState<number | null>(null);
  const editability: TEditability = campaignEditability(current);
  const locked = (field: string) => fieldLocked(field, editability);
  const variables = messageVariables(settings.data);

  const submit = async (body: TCampaignBody) => {
    const saved = await saveCampaign(
      createdId ?? current?.id ?? null,
      bodyToSave(withInstant(body), editability),
      attachment,
      Boolean(current?.mediaPath),
      (record) => {
        setCreatedId(record.id);
        onSaved(record);
      },
    );
    onSaved(saved);
  };

  const runAction = async (action: 'cancel' | 'restart') => {
    if (!current) {
      return;
    }
    setBusy(true);
    try {
      const answer = await campaignAction(current.id, action);
      const next = answer ?? { ...current, status: action === 'cancel' ? 'CANCELADA' : 'EM_ANDAMENTO' };
      setCurrent(next);
      onSaved(next);
      toast.success(t(`campaigns.toasts.${action}`));
    } catch (err) {
      // spec 2 §8: the error's message in an error toast
      toast.error(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const insert = (form: TSelectProps['form'], key: string) => {
    const field = CAMPAIGN_MESSAGE_FIELDS[messageTab] ?? 'message1';
    if (locked(field)) {
      return;
    }
    const el = messageInputs.current[field];
    const text = form.getValues(field) ?? '';
    const next = insertVariable(text, key, el?.selectionStart ?? text.length, el?.selectionEnd ?? text.length);
    form.setValue(field, next.text, { shouldDirty: true });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.caret, next.caret);
    });
  };

  const title = !editability.editable
    ? t('campaigns.dialog.readonlyTitle')
    : current
      ? t('campaigns.dialog.editTitle')
      : t('campaigns.dialog.newTitle');

  return (
    <FormDialog<TCampaignFormValues, TCampaignBody>
      open={open}
      onClose={onClose}
      title={
        <Stack direction="row" spacing={1} alignItems="center" sx={{ flexWrap: 'wrap' }}>
          <span>{title}</span>
          {current ? <CampaignStatusChip status={current.status} testId="campaign-dialog-status" /> : null}
        </Stack>
      }
      schema={ZCampaignBody}
      defaultValues={campaignFormValues(campaign)}
      onSubmit={submit}
      successMessage={t('campaigns.toasts.saved')}
      submitLabel={current ? t('campaigns.dialog.save') : t('campaigns.dialog.add')}
      testId="campaign"
      maxWidth="md"
      readOnly={!editability.canSave}
    >
      {(form) => (
        <>
          {editability.reason ? (
            <Alert
              severity={editability.reason === 'CANCELADA' ? 'warning' : 'info'}
              data-testid="campaign-locked-reason"
              data-reason={editability.reason}
              action={
                current && (canCancel(current) || canRestart(current)) ? (
                  canCancel(current) ? (
                    <Button
                      color="inherit"
                      size="small"
                      startIcon={<Stop />}
                      disabled={busy}
                      onClick={() => void runAction('cancel')}
                      data-testid="campaign-dialog-cancel-sending"
                    >
                      {t('campaigns.dialog.cancelSending')}
                    </Button>
                  ) : (
                    <Button
                      color="inherit"
                      size="small"
                      startIcon={<PlayArrow />}
                      disabled={busy}
                      onClick={() => void runAction('restart')}
                      data-testid="campaign-dialog-restart-sending"
                    >
                      {t('campaigns.dialog.restartSending')}
                    </Button>
                  )
                ) : undefined
              }
            >
              {t(`campaigns.dialog.locked.${editability.reason}`)}
            </Alert>
          ) : null}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField
              form={form}
              name="name"
              size="small"
              label={t('campaigns.dialog.name')}
              required
              autoFocus={editability.editable}
              disabled={locked('name')}
              testId="campaign-name"
              sx={{ flex: 2 }}
            />
            <FormTextField
              form={form}
              name="scheduledAt"
              size="small"
              type="datetime-local"
              label={t('campaigns.dialog.scheduledAt')}
              helperText={t('campaigns.dialog.scheduledAtHint')}
              disabled={locked('scheduledAt')}
              testId="campaign-scheduledAt"
              slotProps={{ inputLabel: { shrink: true } }}
              sx={{ flex: 1 }}
            />
          </Stack>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
            <LinkSelect
              form={form}
              name="whatsappId"
              stored={current?.whatsapp}
              label={t('campaigns.dialog.whatsapp')}
              options={options.whatsapps}
              noneLabel={t('campaigns.dialog.none')}
              disabled={locked('whatsappId')}
            />
            <LinkSelect
              form={form}
              name="fileListId"
              stored={current?.fileList}
              label={t('campaigns.dialog.fileList')}
              options={options.fileLists}
              noneLabel={t('campaigns.dialog.none')}
              disabled={locked('fileListId')}
            />
            <LinkSelect
              form={form}
              name="contactListId"
              stored={current?.contactList}
              label={t('campaigns.dialog.contactList')}
              options={options.contactLists}
              noneLabel={t('campaigns.dialog.none')}
              disabled={locked('contactListId')}
            />
            <LinkSelect
              form={form}
              name="tagListId"
              stored={current?.tag}
              label={t('campaigns.dialog.tagList')}
              options={options.tags}
              noneLabel={t('campaigns.dialog.none')}
              disabled={locked('tagListId')}
            />
          </Box>
          <Typography variant="caption" color="text.secondary" sx={{ mt: '4px !important' }}>
            {t('campaigns.dialog.audienceHint')}
          </Typography>
          <Box>
            <Tabs
              value={messageTab}
              onChange={(_e, tab: number) => setMessageTab(tab)}
              variant="scrollable"
              scrollButtons="auto"
              allowScrollButtonsMobile
              sx={{ borderBottom: 1, borderColor: 'divider' }}
            >
              {CAMPAIGN_MESSAGE_FIELDS.map((field, index) => (
                <Tab
                  key={field}
                  value={index}
                  label={t('campaigns.dialog.message', { n: index + 1 })}
                  data-testid={`campaign-message-tab-${index + 1}`}
                  sx={{ fontWeight: form.watch(field) ? 700 : undefined }}
                />
              ))}
            </Tabs>
            {CAMPAIGN_MESSAGE_FIELDS.map((field, index) => (
              <Box key={field} hidden={index !== messageTab} sx={{ pt: 2 }}>
                <FormTextField
                  form={form}
                  name={field as Path<TCampaignFormValues>}
                  label={t('campaigns.dialog.message', { n: index + 1 })}
                  placeholder={t('campaigns.dialog.messagePlaceholder')}
                  helperText={t('campaigns.dialog.messagesHint')}
                  multiline
                  minRows={5}
                  maxRows={12}
                  disabled={locked(field)}
                  testId={`campaign-${field}`}
                  inputRef={(el: HTMLTextAreaElement | null) => {
                    messageInputs.current[field] = el;
                  }}
                />
              </Box>
            ))}
          </Box>
          <Box data-testid="campaign-variables">
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.5 }}>
              {t('campaigns.dialog.variablesHint')}
            </Typography>
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
              {variables.map((v) => (
                <Tooltip key={v.key} title={v.value ?? ''} disableHoverListener={!v.value}>
                  <Chip
                    size="small"
                    label={`{${v.key}}`}
                    onClick={
                      locked(CAMPAIGN_MESSAGE_FIELDS[messageTab] ?? 'message1') ? undefined : () => insert(form, v.key)
                    }
                    data-testid={`campaign-variable-${v.key}`}
                    sx={{ fontFamily: 'monospace' }}
                  />
                </Tooltip>
              ))}
            </Stack>
          </Box>
          <MediaAttachment
            record={current}
            change={attachment}
            onChange={setAttachment}
            i18nPrefix="campaigns.dialog"
            testId="campaign"
            readOnly={locked('media')}
          />
        </>
      )}
    </FormDialog>
  );
};
