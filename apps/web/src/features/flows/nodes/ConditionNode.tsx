import Rule from '@mui/icons-material/Rule';
import { useTranslation } from '../../../i18n/useTranslation';
import { NodeText } from './NodeShell';
import { text } from './nodeForms';
import type { TNodeSpec } from './nodeSpec';

const ConditionBody = ({ data }: { data: Record<string, unknown> }) => {
  const { t } = useTranslation();

  return (
    <NodeText>
      {t('flows.nodes.condition', { key: text(data.key), condition: text(data.condition), value: text(data.value) })}
    </NodeText>
  );
};

/**
 * A condition (key, condition, value) is only made by a program (spec 3 §2.8): drawn, not offered. It has two
 * outputs, as the engine walks it: `a` when it holds, `b` when it does not — both drawn, so an imported flow's
 * false branch can be seen, moved and edited.
 */
export const conditionSpec: TNodeSpec = {
  type: 'condition',
  Icon: Rule,
  color: '#8d6e63',
  Body: ConditionBody,
  handles: () => [
    { id: 'a', labelKey: 'flows.nodes.conditionTrue' },
    { id: 'b', labelKey: 'flows.nodes.conditionFalse' },
  ],
  inPalette: false,
};
