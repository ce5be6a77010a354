import { Colorize } from '@mui/icons-material';
import {
  Box,
  ButtonBase,
  IconButton,
  InputAdornment,
  Popover,
  Stack,
  Tab,
  Tabs,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { type TQueue, type TQueueBody, ZQueueCreateBody } from '@zelo/shared';
import { useState } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { FormDialog, FormTextField } from '../../components/kit';
import { AutoAssignFields } from '../assignment/AutoAssignFields';
import { useOptions } from '../connections/useOptions';
import './i18n';
import { QueueOptionsEditor } from './QueueOptionsEditor';
import { QUEUE_COLOR_PALETTE } from './queueColors';
import { conflictField, isHexColor, type TQueueFormValues, toQueueFormValues } from './queueForm';

type TForm = UseFormReturn<TQueueFormValues, unknown, TQueueBody>;
type TTab = 'data' | 'hours' | 'options';

/** which tab holds a field, to mark the tab whose fields have errors */
const HOURS_FIELDS = ['schedules'] as const;

/** The colour: a hex typed, or one of the 50 swatches picked from a popover. */
const ColorField = ({ form }: { form: TForm }) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const color = form.watch('color');

  return (
    <>
      <FormTextField
        form={form}
        name="color"
        label={t('queues.dialog.color')}
        required
        helperText={t('queues.dialog.colorHint')}
        testId="queue-color"
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Box
                  sx={{
                    width: 22,
                    height: 22,
                    borderRadius: 0.5,
                    border: 1,
                    borderColor: 'divider',
                    bgcolor: isHexColor(color) ? color : 'transparent',
                  }}
                />
              </InputAdornment>
            ),
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  size="small"
                  aria-label={t('queues.dialog.pickColor')}
                  onClick={(e) => setAnchor(e.currentTarget)}
                  data-testid="queue-color-pick"
                >
                  <Colorize fontSize="small" />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box
          role="listbox"
          aria-label={t('queues.dialog.palette')}
          sx={{ p: 1, display: 'grid', gridTemplateColumns: 'repeat(10, 28px)', gap: 0.5, maxWidth: '90vw' }}
        >
          {QUEUE_COLOR_PALETTE.map((swatch) => (
            <Tooltip key={swatch} title={swatch}>
              <ButtonBase
                role="option"
                aria-label={swatch}
                aria-selected={swatch.toLowerCase() === color.toLowerCase()}
                onClick={() => {
                  form.setValue('color', swatch, { shouldValidate: true, shouldDirty: true });
                  setAnchor(null);
                }}
                data-testid={`queue-color-swatch-${swatch.slice(1)}`}
                sx={{
                  width: 28,
                  height: 28,
                  borderRadius: 0.5,
                  bgcolor: swatch,
                  outline: swatch.toLowerCase() === color.toLowerCase() ? 2 : 0,
                  outlineColor: 'text.primary',
                  outlineOffset: 1,
                }}
              />
            </Tooltip>
          ))}
        </Box>
      </Popover>
    </>
  );
};

/** An id select whose first entry is "none" (the lists stay empty until prompts and integrations are built). */
const LinkSelect = ({
  form,
  name,
  label,
  url,
}: {
  form: TForm;
  name: 'integrationId' | 'promptId';
  label: string;
  url: string;
}) => {
  const { t } = useTranslation();
  const { data: choices = [] } = useOptions(url);

  return (
    <Controller
      name={name}
      control={form.control}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          label={label}
          value={field.value === '' ? '' : String(field.value)}
          onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
          onBlur={field.onBlur}
          slotProps={{
            select: { native: true },
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': `queue-${name}` },
          }}
        >
          <option value="">{t('queues.dialog.none')}</option>
          {choices.map((choice) => (
            <option key={choice.id} value={String(choice.id)}>
              {choice.name}
            </option>
          ))}
        </TextField>
      )}
    />
  );
};

/** The seven days, Monday to Sunday: start and end (HH:mm); both empty is open all day. */
const WorkingHoursFields = ({ form }: { form: TForm }) => {
  const { t } = useTranslation();
  const days = form.getValues('schedules');

  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" color="text.secondary">
        {t('queues.dialog.hoursHint')}
      </Typography>
      {days.map((day, index) => (
        <Stack key={day.weekdayEn} direction="row" spacing={1} alignItems="flex-start">
          <Typography sx={{ width: { xs: 84, sm: 140 }, flexShrink: 0, pt: 1 }} variant="body2">
            {t(`queues.weekdays.${day.weekdayEn}`)}
          </Typography>
          <FormTextField
            form={form}
            name={`schedules.${index}.startTime`}
            label={t('queues.dialog.start')}
            type="time"
            size="small"
            slotProps={{ inputLabel: { shrink: true } }}
            testId={`queue-hours-${day.weekdayEn}-start`}
          />
          <FormTextField
            form={form}
            name={`schedules.${index}.endTime`}
            label={t('queues.dialog.end')}
            type="time"
            size="small"
            slotProps={{ inputLabel: { shrink: true } }}
            testId={`queue-hours-${day.weekdayEn}-end`}
          />
        </Stack>
      ))}
    </Stack>
  );
};

type TQueueDialogProps = {
  open: boolean;
  /** null adds a queue */
  queue: TQueue | null;
  /** setting scheduleType is `queue`: working hours and the out-of-hours message are the queue's */
  hasQueueHours: boolean;
  /** the colour a new queue starts with */
  defaultColor: string;
  onSave: (id: number | null, body: TQueueBody) => Promise<unknown>;
  onClose: () => void;
};

/**
 * Adds or edits a queue (spec 2 §3–§5): its data; its working hours when the company's schedule type is
 * `queue`; the chatbot's options tree once the queue exists. A name or colour another queue holds is
 * marked on its field.
 */
export const QueueDialog = ({ open, queue, hasQueueHours, defaultColor, onSave, onClose }: TQueueDialogProps) => {
  const { t } = useTranslation();
  const [tab, setTab] = useState<TTab>('data');
  const isEdit = queue !== null;
  const close = () => {
    setTab('data');
    onClose();
  };

  return (
    <FormDialog<TQueueFormValues, TQueueBody>
      open={open}
      onClose={close}
      title={isEdit ? t('queues.dialog.editTitle') : t('queues.dialog.addTitle')}
      schema={ZQueueCreateBody}
      defaultValues={toQueueFormValues(queue, defaultColor)}
      onSubmit={async (body, form) => {
        try {
          await onSave(queue?.id ?? null, body);
        } catch (err) {
          const conflict = conflictField(err);
          if (conflict) {
            form.setError(conflict.field, { type: 'server', message: conflict.message });
            setTab('data');
          }
          throw err;
        }
      }}
      successMessage={t('queues.saved')}
      submitLabel={isEdit ? t('queues.dialog.save') : t('queues.dialog.add')}
      testId="queue"
      maxWidth="md"
    >
      {(form) => {
        const errors = form.formState.errors;
        const hoursHaveErrors = HOURS_FIELDS.some((f) => errors[f]);
        const dataHasErrors = Object.keys(errors).some((f) => !(HOURS_FIELDS as readonly string[]).includes(f));
        const shown: TTab = tab === 'hours' && !hasQueueHours ? 'data' : tab;

        return (
          <>
            <Tabs
              value={shown}
              onChange={(_, value: TTab) => setTab(value)}
              variant="scrollable"
              allowScrollButtonsMobile
              sx={{ borderBottom: 1, borderColor: 'divider', mt: -1 }}
            >
              <Tab
                value="data"
                label={t('queues.dialog.tabs.data')}
                data-testid="queue-tab-data"
                sx={dataHasErrors ? { color: 'error.main' } : undefined}
              />
              {hasQueueHours && (
                <Tab
                  value="hours"
                  label={t('queues.dialog.tabs.hours')}
                  data-testid="queue-tab-hours"
                  sx={hoursHaveErrors ? { color: 'error.main' } : undefined}
                />
              )}
              <Tab value="options" label={t('queues.dialog.tabs.options')} data-testid="queue-tab-options" />
            </Tabs>
            {/* hidden tabs stay mounted: their fields keep their values and are validated with the form */}
            <Stack spacing={2} sx={{ display: shown === 'data' ? 'flex' : 'none' }}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <FormTextField
                  form={form}
                  name="name"
                  label={t('queues.dialog.name')}
                  required
                  autoFocus
                  testId="queue-name"
                />
                <FormTextField
                  form={form}
                  name="orderQueue"
                  label={t('queues.dialog.order')}
                  inputMode="numeric"
                  testId="queue-order"
                  sx={{ maxWidth: { sm: 200 } }}
                />
              </Stack>
              <ColorField form={form} />
              <FormTextField
                form={form}
                name="greetingMessage"
                label={t('queues.dialog.greeting')}
                multiline
                minRows={3}
                testId="queue-greeting"
              />
              {hasQueueHours && (
                <FormTextField
                  form={form}
                  name="outOfHoursMessage"
                  label={t('queues.dialog.outOfHours')}
                  multiline
                  minRows={2}
                  testId="queue-out-of-hours"
                />
              )}
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <LinkSelect
                  form={form}
                  name="integrationId"
                  label={t('queues.dialog.integration')}
                  url="/queueIntegration"
                />
                <LinkSelect form={form} name="promptId" label={t('queues.dialog.prompt')} url="/prompt" />
              </Stack>
              <AutoAssignFields form={form} />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <FormTextField
                  form={form}
                  name="slaFirstResponseMinutes"
                  label={t('queues.dialog.slaFirstResponse')}
                  inputMode="numeric"
                  helperText={t('queues.dialog.slaHint')}
                  testId="queue-sla-first-response"
                />
                <FormTextField
                  form={form}
                  name="slaResolutionHours"
                  label={t('queues.dialog.slaResolution')}
                  inputMode="numeric"
                  testId="queue-sla-resolution"
                />
              </Stack>
            </Stack>
            {hasQueueHours && (
              <Box sx={{ display: shown === 'hours' ? 'block' : 'none' }}>
                <WorkingHoursFields form={form} />
              </Box>
            )}
            <Box sx={{ display: shown === 'options' ? 'block' : 'none' }}>
              {queue ? (
                <QueueOptionsEditor queueId={queue.id} />
              ) : (
                <Typography color="text.secondary" data-testid="queue-options-save-first">
                  {t('queues.options.saveQueueFirst')}
                </Typography>
              )}
            </Box>
          </>
        );
      }}
    </FormDialog>
  );
};
