import PlaceIcon from '@mui/icons-material/Place';
import { Box, Link, Stack, Typography } from '@mui/material';
import { useTranslation } from '../../../i18n/useTranslation';
import { parseLocationBody } from '../messageLogic';

/** A location preview from the pipe-separated body: image, link and an optional description. */
export const LocationMessage = ({ body }: { body: string }) => {
  const { t } = useTranslation();
  const location = parseLocationBody(body);
  if (!location) {
    return <Typography variant="body2">{body}</Typography>;
  }
  const safeLink = /^https?:\/\//i.test(location.link) ? location.link : undefined;
  const safeImage = /^(https?:\/\/|data:image\/|\/public\/)/i.test(location.imageUrl) ? location.imageUrl : '';

  return (
    <Stack spacing={0.5} data-testid="message-location" sx={{ maxWidth: 260 }}>
      {safeImage ? (
        <Box component="img" src={safeImage} alt={t('tickets.location')} sx={{ width: '100%', borderRadius: 1 }} />
      ) : (
        <Stack direction="row" alignItems="center" spacing={1}>
          <PlaceIcon color="error" />
          <Typography variant="body2">{t('tickets.location')}</Typography>
        </Stack>
      )}
      {location.description ? <Typography variant="body2">{location.description}</Typography> : null}
      {safeLink ? (
        <Link href={safeLink} target="_blank" rel="noopener noreferrer" variant="body2">
          {t('tickets.messages.openMap')}
        </Link>
      ) : null}
    </Stack>
  );
};
