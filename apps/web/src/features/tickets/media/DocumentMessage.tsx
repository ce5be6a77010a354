import DownloadIcon from '@mui/icons-material/GetApp';
import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** Any other file: a download link with its name. */
export const DocumentMessage = ({ url, name }: { url: string; name: string }) => {
  const { t } = useTranslation();

  return (
    <Button
      variant="outlined"
      size="small"
      startIcon={<DownloadIcon />}
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      download={name || true}
      data-testid="message-document"
      sx={{ textTransform: 'none', maxWidth: 260, justifyContent: 'flex-start' }}
    >
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {name || t('tickets.messages.download')}
      </span>
    </Button>
  );
};
