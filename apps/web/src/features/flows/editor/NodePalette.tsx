import AddIcon from '@mui/icons-material/Add';
import { Fab, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../../i18n/useTranslation';
import type { TNodeType } from '../flowDocument';
import { PALETTE } from '../nodes/registry';

/**
 * The button that adds nodes (spec 3 §2.8): every type but the programmatic condition, each with its icon and its
 * name, in a menu that fits the window (it scrolls inside itself on a short one, so the last types stay reachable
 * at 800 px and the canvas never moves).
 */
export const NodePalette = ({ onPick }: { onPick: (type: TNodeType) => void }) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  return (
    <>
      <Tooltip title={t('flows.editor.addNode')} placement="right">
        <Fab
          size="medium"
          color="primary"
          aria-label={t('flows.editor.addNode')}
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(e) => setAnchor(e.currentTarget)}
          data-testid="flow-palette"
          sx={{ position: 'absolute', top: 12, left: 12, zIndex: 10 }}
        >
          <AddIcon />
        </Fab>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { maxHeight: 'calc(100dvh - 120px)' } }, list: { dense: true } }}
        data-testid="flow-palette-menu"
      >
        {PALETTE.map((spec) => (
          <MenuItem
            key={spec.type}
            onClick={() => {
              setAnchor(null);
              onPick(spec.type);
            }}
            data-testid={`flow-add-${spec.type}`}
          >
            <ListItemIcon>
              <spec.Icon sx={{ color: spec.color }} />
            </ListItemIcon>
            <ListItemText>{t(`flows.types.${spec.type}`)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
