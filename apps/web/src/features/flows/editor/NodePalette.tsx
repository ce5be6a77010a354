import { SpeedDial, SpeedDialAction, SpeedDialIcon } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TNodeType } from '../flowDocument';
import { PALETTE } from '../nodes/registry';

/** The speed-dial that adds nodes (spec 3 §2.8): every type but the programmatic condition. */
export const NodePalette = ({ onPick }: { onPick: (type: TNodeType) => void }) => {
  const { t } = useTranslation();
  // opened and closed by a click only: a hover must not unfold twelve actions over the canvas
  const [open, setOpen] = useState(false);

  return (
    <SpeedDial
      ariaLabel={t('flows.editor.addNode')}
      open={open}
      onOpen={(_, reason) => reason === 'toggle' && setOpen(true)}
      onClose={(_, reason) =>
        (reason === 'toggle' || reason === 'escapeKeyDown' || reason === 'blur') && setOpen(false)
      }
      icon={<SpeedDialIcon />}
      direction="down"
      FabProps={{ size: 'medium', 'data-testid': 'flow-palette' } as object}
      sx={{ position: 'absolute', top: 12, left: 12, zIndex: 10 }}
    >
      {PALETTE.map((spec) => (
        <SpeedDialAction
          key={spec.type}
          icon={<spec.Icon sx={{ color: spec.color }} />}
          onClick={() => {
            setOpen(false);
            onPick(spec.type);
          }}
          slotProps={{
            tooltip: { title: t(`flows.types.${spec.type}`), open: true, placement: 'right' },
            fab: { 'data-testid': `flow-add-${spec.type}` } as object,
          }}
        />
      ))}
    </SpeedDial>
  );
};
