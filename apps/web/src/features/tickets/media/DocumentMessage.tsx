import DownloadIcon from '@mui/icons-material/GetApp';
import { Button } from '@mui/material';
import { useTranslation } from '../../../i18n/useTranslation';

/** room kept right of the chip for the bubble's menu chevron (absolute at the top right, 24 px wide) */
export const DOCUMENT_MENU_ROOM = 3.5;

/** Any other file: a download link with its name, clear of the message menu's chevron. */
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
      sx={{ textTransform: 'none', maxWidth: 260, justifyContent: 'flex-start', mr: DOCUMENT_MENU_ROOM }}
    >
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {name || t('tickets.messages.download')}
      </span>
    </Button>
  );
};
