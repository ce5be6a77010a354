import { Box, CircularProgress, Dialog, DialogTitle, Typography } from '@mui/material';
import type { TConnection } from '@zelo/shared';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/useTranslation';

/** the two ways of starting a session on the phone, each with its texts under `connections.<way>` */
type TSessionWay = 'qr' | 'pairing';

type TSessionDialogProps = {
  way: TSessionWay;
  /** the connection being paired; null: closed */
  connection: TConnection | null;
  /** false keeps it closed even with a connection */
  open?: boolean;
  onClose: () => void;
  testId: string;
  /** the content and the actions */
  children: ReactNode;
};

/** The frame of the QR and pairing-code dialogs: the dialog and its title naming the connection. */
export const SessionDialog = ({ way, connection, open = true, onClose, testId, children }: TSessionDialogProps) => {
  const { t } = useTranslation();

  return (
    <Dialog open={open && connection !== null} onClose={onClose} maxWidth="sm" fullWidth data-testid={testId}>
      <DialogTitle>{t(`connections.${way}.title`, { name: connection?.name ?? '' })}</DialogTitle>
      {children}
    </Dialog>
  );
};

/** The spinner shown while the QR or the pairing code has not arrived yet. */
export const SessionWaiting = ({ way, testId }: { way: TSessionWay; testId?: string }) => {
  const { t } = useTranslation();

  return (
    <Box sx={{ textAlign: 'center' }} data-testid={testId}>
      <CircularProgress size={32} />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t(`connections.${way}.waiting`)}
      </Typography>
    </Box>
  );
};

/** What to do on the phone: the title and the four steps of `connections.<way>`. */
export const PhoneSteps = ({ way }: { way: TSessionWay }) => {
  const { t } = useTranslation();

  return (
    <>
      <Typography variant="subtitle1" gutterBottom>
        {t(`connections.${way}.instructionsTitle`)}
      </Typography>
      <Typography variant="body2" component="ol" sx={{ pl: 2.5, m: 0, '& li': { mb: 0.5 } }}>
        <li>{t(`connections.${way}.step1`)}</li>
        <li>{t(`connections.${way}.step2`)}</li>
        <li>{t(`connections.${way}.step3`)}</li>
        <li>{t(`connections.${way}.step4`)}</li>
      </Typography>
    </>
  );
};
