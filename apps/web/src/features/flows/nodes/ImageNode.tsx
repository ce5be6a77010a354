import Image from '@mui/icons-material/Image';
import { useTranslation } from '../../../i18n/useTranslation';
import { MediaNodeDialog } from './MediaNodeDialog';
import { NodeText } from './NodeShell';
import { text } from './nodeForms';
import type { TNodeData, TNodeDialogProps, TNodeSpec } from './nodeSpec';

const ImageBody = ({ data }: { data: TNodeData }) => {
  const { t } = useTranslation();
  const name = text(data.original || data.url);

  return (
    <>
      <NodeText lines={2}>{name || t('flows.nodes.empty')}</NodeText>
      {Boolean(data.record) && <NodeText lines={1}>{t('flows.nodes.recorded')}</NodeText>}
    </>
  );
};

const ImageDialog = (props: TNodeDialogProps) => <MediaNodeDialog kind="img" {...props} />;

export const imgSpec: TNodeSpec = {
  type: 'img',
  Icon: Image,
  color: '#2e7d32',
  Body: ImageBody,
  Dialog: ImageDialog,
  inPalette: true,
};
