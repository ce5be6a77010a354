import { Slider } from '@mui/material';
import { useTranslation } from '../../i18n/useTranslation';

/** the volume popover's slider (its own chunk: the slider code loads when the popover first opens) */
export const VolumeSlider = ({ volume, onChange }: { volume: number; onChange: (volume: number) => void }) => {
  const { t } = useTranslation();

  return (
    <Slider
      value={volume}
      min={0}
      max={1}
      step={0.1}
      valueLabelDisplay="auto"
      onChange={(_, value) => onChange(value as number)}
      aria-label={t('layout.volume')}
      data-testid="volume-slider"
    />
  );
};
