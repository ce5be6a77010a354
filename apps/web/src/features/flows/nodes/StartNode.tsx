import RocketLaunch from '@mui/icons-material/RocketLaunch';
import { useTranslation } from '../../../i18n/useTranslation';
import type { TNodeSpec } from './nodeSpec';
import { NodeText } from './NodeShell';

const StartBody = () => {
  const { t } = useTranslation();

  return <NodeText>{t('flows.nodes.startLabel')}</NodeText>;
};

/** The single start node (id '1'): no dialog, no target, cannot be duplicated or deleted; adding one replaces it. */
export const startSpec: TNodeSpec = {
  type: 'start',
  Icon: RocketLaunch,
  color: '#3aba38',
  Body: StartBody,
  inPalette: true,
};
