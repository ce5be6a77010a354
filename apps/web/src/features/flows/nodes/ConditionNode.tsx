import Rule from '@mui/icons-material/Rule';
import { useTranslation } from 'react-i18next';
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

/** A condition (key, condition, value) is only made by a program (spec 3 §2.8): drawn, not offered. */
export const conditionSpec: TNodeSpec = {
  type: 'condition',
  Icon: Rule,
  color: '#8d6e63',
  Body: ConditionBody,
  inPalette: false,
};
