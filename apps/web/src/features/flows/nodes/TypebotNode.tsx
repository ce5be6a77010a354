import SmartToy from '@mui/icons-material/SmartToy';
import { Stack } from '@mui/material';
import { useTranslation } from '../../../i18n/useTranslation';
import { FormTextField } from '../../../components/kit';
import { NodeFormDialog } from './NodeFormDialog';
import { NodeText } from './NodeShell';
import { integrationOf, TYPEBOT_DEFAULTS, type TTypebotForm, text, ZTypebotForm } from './nodeForms';
import type { TNodeData, TNodeDialogProps, TNodeSpec } from './nodeSpec';

const TypebotBody = ({ data }: { data: TNodeData }) => {
  const tb = integrationOf(data);

  return <NodeText lines={2}>{[text(tb.name), text(tb.typebotSlug)].filter(Boolean).join(' · ')}</NodeText>;
};

type TTypebotValues = Record<keyof TTypebotForm, string>;
const FIELDS: { name: keyof TTypebotForm; required?: boolean; number?: boolean; half?: boolean }[] = [
  { name: 'name', required: true },
  { name: 'urlN8N', required: true },
  { name: 'typebotSlug', required: true },
  { name: 'typebotExpires', number: true, half: true },
  { name: 'typebotDelayMessage', number: true, half: true },
  { name: 'typebotKeywordFinish', half: true },
  { name: 'typebotKeywordRestart', half: true },
  { name: 'typebotUnknownMessage' },
  { name: 'typebotRestartMessage' },
];

/** Typebot dialog: the integration's fields (spec 3 §3), stored as `data.typebotIntegration`. */
const TypebotDialog = ({ data, onSubmit, onClose }: TNodeDialogProps) => {
  const { t } = useTranslation();
  const tb = integrationOf(data);
  const defaults = Object.fromEntries(
    FIELDS.map((f) => [f.name, text(tb[f.name] ?? (TYPEBOT_DEFAULTS as Record<string, number>)[f.name])]),
  ) as TTypebotValues;

  return (
    <NodeFormDialog<TTypebotValues, TTypebotForm>
      type="typebot"
      isEdit={data !== null}
      schema={ZTypebotForm}
      defaultValues={defaults}
      toData={(v) => ({ typebotIntegration: { ...tb, ...v } })}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {(form) => (
        <Stack direction="row" useFlexGap flexWrap="wrap" spacing={2}>
          {FIELDS.map((f) => (
            <FormTextField
              key={f.name}
              form={form}
              name={f.name}
              label={t(`flows.dialogs.typebot.${f.name}`)}
              required={f.required}
              type={f.number ? 'number' : 'text'}
              size="small"
              sx={{ flexBasis: f.half ? 'calc(50% - 8px)' : '100%', flexGrow: 1 }}
              testId={`flow-typebot-${f.name}`}
            />
          ))}
        </Stack>
      )}
    </NodeFormDialog>
  );
};

export const typebotSpec: TNodeSpec = {
  type: 'typebot',
  Icon: SmartToy,
  color: '#0042da',
  Body: TypebotBody,
  Dialog: TypebotDialog,
  inPalette: true,
};
