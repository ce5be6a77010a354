import CallSplit from '@mui/icons-material/CallSplit';
import { Slider, Stack, Typography } from '@mui/material';
import { Controller } from 'react-hook-form';
import { useTranslation } from '../../../i18n/useTranslation';
import { NodeFormDialog } from './NodeFormDialog';
import { NodeText } from './NodeShell';
import { RANDOMIZER_STEP, ZRandomizerForm } from './nodeForms';
import type { TNodeData, TNodeDialogProps, TNodeSpec } from './nodeSpec';

const percentOf = (data: TNodeData | null) => {
  const n = Number(data?.percent);

  return Number.isFinite(n) ? Math.min(100, Math.max(0, n)) : 50;
};

const RandomizerBody = ({ data }: { data: TNodeData }) => {
  const { t } = useTranslation();
  const a = percentOf(data);

  return <NodeText>{t('flows.nodes.percent', { a, b: 100 - a })}</NodeText>;
};

/** Randomizer dialog: path A's share, 0 to 100 in steps of 10; path B gets the complement. */
const RandomizerDialog = ({ data, onSubmit, onClose }: TNodeDialogProps) => {
  const { t } = useTranslation();

  return (
    <NodeFormDialog<{ percent: number }, { percent: number }>
      type="randomizer"
      isEdit={data !== null}
      schema={ZRandomizerForm}
      defaultValues={{ percent: percentOf(data) }}
      toData={(v) => ({ percent: v.percent })}
      onSubmit={onSubmit}
      onClose={onClose}
      maxWidth="xs"
    >
      {(form) => (
        <Controller
          name="percent"
          control={form.control}
          render={({ field }) => (
            <Stack spacing={1} sx={{ px: 1 }}>
              <Slider
                value={Number(field.value)}
                onChange={(_, v) => field.onChange(v as number)}
                step={RANDOMIZER_STEP}
                marks
                min={0}
                max={100}
                valueLabelDisplay="auto"
                slotProps={{ input: { 'data-testid': 'flow-randomizer-percent' } as object }}
              />
              <Stack direction="row" justifyContent="space-between">
                <Typography variant="body2">{t('flows.dialogs.percentA', { value: field.value })}</Typography>
                <Typography variant="body2">
                  {t('flows.dialogs.percentB', { value: 100 - Number(field.value) })}
                </Typography>
              </Stack>
            </Stack>
          )}
        />
      )}
    </NodeFormDialog>
  );
};

export const randomizerSpec: TNodeSpec = {
  type: 'randomizer',
  Icon: CallSplit,
  color: '#1fbadc',
  Body: RandomizerBody,
  handles: (data) => {
    const a = percentOf(data);

    return [
      { id: 'a', label: `A ${a}%` },
      { id: 'b', label: `B ${100 - a}%` },
    ];
  },
  Dialog: RandomizerDialog,
  inPalette: true,
};
