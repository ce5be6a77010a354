import { Box, Button, DialogActions, DialogContent, TextField, Typography } from '@mui/material';
import { type TConnection, type TPairingBody, ZPairingBody } from '@zelo/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { applyFieldErrors } from '../../components/applyFieldErrors';
import { fieldErrorText } from '../../components/form';
import { formResolver } from '../../components/formResolver';
import { toastError } from '../../components/toast';
import { ConnectionStatus } from './ConnectionStatus';
import { codeOfAnswer, normalizePairingCode } from './pairingCode';
import { PhoneSteps, SessionDialog, SessionWaiting } from './SessionDialog';
import { useSessionUpdates } from './useSessionUpdates';

type TPairingDialogProps = {
  /** the Baileys connection to pair; null: closed */
  connection: TConnection | null;
  onClose: () => void;
};

/** The 8 characters big, in two groups of four, one box each. */
const PairingCode = ({ code, label }: { code: string; label: string }) => (
  <Box
    role="img"
    aria-label={label}
    data-testid="pairing-code"
    data-code={code}
    sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 0.75, flexWrap: 'nowrap' }}
  >
    {code.split('').map((char, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: a character's place is its identity
      <Box key={i} sx={{ display: 'contents' }}>
        {i === 4 ? (
          <Typography component="span" sx={{ fontSize: 32, color: 'text.secondary', px: 0.5 }} aria-hidden>
            –
          </Typography>
        ) : null}
        <Box
          component="span"
          aria-hidden
          sx={{
            width: 44,
            height: 56,
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            bgcolor: 'action.hover',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontSize: 30,
            fontWeight: 600,
          }}
        >
          {char}
        </Box>
      </Box>
    ))}
  </Box>
);

/**
 * Baileys: pairing by phone number. The number goes to POST /whatsappsession/:id/pairing; the 8-character code
 * then arrives (the answer, or the connection's `qrcode` while it is PAIRING) and is typed on the phone. Closes
 * itself when a session update says the connection is CONNECTED, as the QR modal does.
 */
export const PairingDialog = ({ connection, onClose }: TPairingDialogProps) => {
  const { t } = useTranslation();
  const id = connection?.id ?? null;
  const alreadyPairing = connection?.status === 'PAIRING' && Boolean(connection.qrcode);
  const [step, setStep] = useState<'phone' | 'code'>(alreadyPairing ? 'code' : 'phone');
  const [answered, setAnswered] = useState('');
  const [live, setLive] = useState('');
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TPairingBody, unknown, TPairingBody>({
    resolver: formResolver(ZPairingBody),
    defaultValues: { phoneNumber: connection?.phoneNumber ?? '' },
  });

  useSessionUpdates(id, (session) => {
    if (session.status === 'CONNECTED') {
      onClose();

      return;
    }
    setLive(session.status === 'PAIRING' ? normalizePairingCode(session.qrcode) : '');
  });

  const listed = connection?.status === 'PAIRING' ? normalizePairingCode(connection.qrcode) : '';
  const code = live || listed || answered;

  const onSubmit = async (body: TPairingBody) => {
    if (id === null) {
      return;
    }
    try {
      const answer = await api.post<unknown>(`/whatsappsession/${id}/pairing`, body);
      setAnswered(codeOfAnswer(answer));
      setStep('code');
    } catch (err) {
      applyFieldErrors<TPairingBody>(err, ['phoneNumber'], setError);
      toastError(err);
    }
  };

  return (
    <SessionDialog way="pairing" connection={connection} onClose={onClose} testId="pairing-dialog">
      {step === 'phone' ? (
        <Box component="form" onSubmit={handleSubmit(onSubmit)} noValidate>
          <DialogContent dividers>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {t('connections.pairing.intro')}
            </Typography>
            <TextField
              {...register('phoneNumber')}
              label={t('connections.pairing.phoneNumber')}
              fullWidth
              autoFocus
              required
              type="tel"
              error={Boolean(errors.phoneNumber)}
              helperText={fieldErrorText(t, errors.phoneNumber) ?? t('connections.pairing.phoneHint')}
              slotProps={{ htmlInput: { 'data-testid': 'pairing-phone', inputMode: 'tel', autoComplete: 'tel' } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} color="inherit" data-testid="pairing-cancel">
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="pairing-request">
              {t('connections.pairing.request')}
            </Button>
          </DialogActions>
        </Box>
      ) : (
        <>
          <DialogContent dividers>
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
              <Box sx={{ minHeight: 72, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
                {code ? (
                  <PairingCode code={code} label={t('connections.pairing.codeAlt', { code })} />
                ) : (
                  <SessionWaiting way="pairing" testId="pairing-waiting" />
                )}
              </Box>
              <Box>
                <PhoneSteps way="pairing" />
              </Box>
              {connection ? (
                <ConnectionStatus
                  status={connection.status}
                  provider={connection.provider}
                  error={connection.lastError}
                  testId="pairing-status"
                />
              ) : null}
            </Box>
          </DialogContent>
          <DialogActions>
            <Button
              onClick={() => {
                setAnswered('');
                setLive('');
                setStep('phone');
              }}
              color="inherit"
              data-testid="pairing-other-number"
            >
              {t('connections.pairing.otherNumber')}
            </Button>
            <Button onClick={onClose} variant="contained" data-testid="pairing-close">
              {t('common.close')}
            </Button>
          </DialogActions>
        </>
      )}
    </SessionDialog>
  );
};
