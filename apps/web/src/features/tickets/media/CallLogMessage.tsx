import PhoneMissedIcon from '@mui/icons-material/PhoneMissed';
import { Stack, Typography } from '@mui/material';
import { useTranslation } from '../../../i18n/useTranslation';
import { formatTime } from '../messageLogic';

/** A lost voice or video call. */
export const CallLogMessage = ({ createdAt }: { createdAt: string }) => {
  const { t } = useTranslation();

  return (
    <Stack direction="row" spacing={1} alignItems="center" data-testid="message-call-log">
      <PhoneMissedIcon color="error" fontSize="small" />
      <Typography variant="body2">{t('tickets.messages.lostCall', { time: formatTime(createdAt) })}</Typography>
    </Stack>
  );
};
