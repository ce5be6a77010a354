import Mic from '@mui/icons-material/Mic';
import { useTranslation } from '../../../i18n/useTranslation';
import { MediaNodeDialog } from './MediaNodeDialog';
import { NodeText } from './NodeShell';
import { text } from './nodeForms';
import type { TNodeData, TNodeDialogProps, TNodeSpec } from './nodeSpec';

const AudioBody = ({ data }: { data: TNodeData }) => {
  const { t } = useTranslation();
  const name = text(data.original || data.url);

  return (
    <>
      <NodeText lines={2}>{name || t('flows.nodes.empty')}</NodeText>
      {Boolean(data.record) && <NodeText lines={1}>{t('flows.nodes.recorded')}</NodeText>}
    </>
  );
};

const AudioDialog = (props: TNodeDialogProps) => <MediaNodeDialog kind="audio" {...props} />;

export const audioSpec: TNodeSpec = {
  type: 'audio',
  Icon: Mic,
  color: '#c2185b',
  Body: AudioBody,
  Dialog: AudioDialog,
  inPalette: true,
};
