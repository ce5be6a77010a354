import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import { IconButton, Popover, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyNamed, OnceOpened } from '../../components/lazyPart';
import { useVolume } from './volume';

const VolumeSlider = lazyNamed(() => import('./VolumeSlider'), 'VolumeSlider');

export const VolumeControl = () => {
  const { t } = useTranslation();
  const { volume, setVolume } = useVolume();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  return (
    <>
      <Tooltip title={t('layout.volume')}>
        <IconButton
          color="inherit"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={t('layout.volume')}
          data-testid="volume-button"
        >
          {volume === 0 ? <VolumeOffIcon /> : <VolumeUpIcon />}
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        transformOrigin={{ vertical: 'top', horizontal: 'center' }}
        slotProps={{ paper: { sx: { px: 3, py: 1.5, width: 220 } } }}
      >
        <OnceOpened open={Boolean(anchor)}>
          <VolumeSlider volume={volume} onChange={setVolume} />
        </OnceOpened>
      </Popover>
    </>
  );
};
