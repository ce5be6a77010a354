import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { normalizeNumber } from './simulatorState';

type TLocation = { latitude: number; longitude: number; description?: string };

/** The customer shares a location. */
export const LocationDialog = ({
  open,
  onClose,
  onSend,
}: {
  open: boolean;
  onClose: () => void;
  onSend: (location: TLocation) => void;
}) => {
  const { t } = useTranslation();
  const [latitude, setLatitude] = useState('-23.5505');
  const [longitude, setLongitude] = useState('-46.6333');
  const [description, setDescription] = useState('');
  const lat = Number(latitude);
  const lng = Number(longitude);
  const valid =
    latitude.trim() !== '' &&
    longitude.trim() !== '' &&
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lng) <= 180;

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('simulator.location.title')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Stack direction="row" spacing={2}>
            <TextField
              label={t('simulator.location.latitude')}
              value={latitude}
              onChange={(e) => setLatitude(e.target.value)}
              error={!valid}
              slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'sim-location-lat' } }}
            />
            <TextField
              label={t('simulator.location.longitude')}
              value={longitude}
              onChange={(e) => setLongitude(e.target.value)}
              error={!valid}
              slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'sim-location-lng' } }}
            />
          </Stack>
          <TextField
            label={t('simulator.location.description')}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'sim-location-description' } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={!valid}
          data-testid="sim-location-send"
          onClick={() => {
            onSend({
              latitude: lat,
              longitude: lng,
              ...(description.trim() ? { description: description.trim() } : {}),
            });
            onClose();
          }}
        >
          {t('simulator.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/** The customer shares a contact card. */
export const VcardDialog = ({
  open,
  onClose,
  onSend,
}: {
  open: boolean;
  onClose: () => void;
  onSend: (contact: { name: string; number: string }) => void;
}) => {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [number, setNumber] = useState('');
  const digits = normalizeNumber(number);
  const valid = name.trim().length > 0 && digits.length >= 8 && digits.length <= 15;

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('simulator.vcard.title')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <TextField
            label={t('simulator.vcard.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'sim-vcard-name' } }}
          />
          <TextField
            label={t('simulator.vcard.number')}
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            helperText={t('simulator.numberHint')}
            slotProps={{ htmlInput: { inputMode: 'tel', 'data-testid': 'sim-vcard-number' } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={!valid}
          data-testid="sim-vcard-send"
          onClick={() => {
            onSend({ name: name.trim(), number: digits });
            setName('');
            setNumber('');
            onClose();
          }}
        >
          {t('simulator.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
