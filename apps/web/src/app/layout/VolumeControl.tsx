import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import { IconButton, Popover } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { lazyNamed, OnceOpened } from '../../components/lazyPart';
import { useVolume } from './volume';
import { Hint } from '../../components/Hint';

const VolumeSlider = lazyNamed(() => import('./VolumeSlider'), 'VolumeSlider');

export const VolumeControl = () => {
  const { t } = useTranslation();
  const { volume, setVolume } = useVolume();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  return (
    <>
      <Hint title={t('layout.volume')}>
        <IconButton
          color="inherit"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={t('layout.volume')}
          data-testid="volume-button"
        >
          {volume === 0 ? <VolumeOffIcon /> : <VolumeUpIcon />}
        </IconButton>
      </Hint>
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
