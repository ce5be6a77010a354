import Videocam from '@mui/icons-material/Videocam';
import { useTranslation } from '../../../i18n/useTranslation';
import { MediaNodeDialog } from './MediaNodeDialog';
import { NodeText } from './NodeShell';
import { text } from './nodeForms';
import type { TNodeData, TNodeDialogProps, TNodeSpec } from './nodeSpec';

const VideoBody = ({ data }: { data: TNodeData }) => {
  const { t } = useTranslation();
  const name = text(data.original || data.url);

  return (
    <>
      <NodeText lines={2}>{name || t('flows.nodes.empty')}</NodeText>
      {Boolean(data.record) && <NodeText lines={1}>{t('flows.nodes.recorded')}</NodeText>}
    </>
  );
};

const VideoDialog = (props: TNodeDialogProps) => <MediaNodeDialog kind="video" {...props} />;

export const videoSpec: TNodeSpec = {
  type: 'video',
  Icon: Videocam,
  color: '#0277bd',
  Body: VideoBody,
  Dialog: VideoDialog,
  inPalette: true,
};
