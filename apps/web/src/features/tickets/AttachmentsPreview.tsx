import CloseIcon from '@mui/icons-material/Close';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import {
  Avatar,
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemAvatar,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useMemo } from 'react';
import { useTranslation } from '../../i18n/useTranslation';

type AttachmentsPreviewProps = {
  files: File[];
  caption: string;
  onCaption: (caption: string) => void;
  onRemove: (index: number) => void;
  onCancel: () => void;
  onSend: () => void;
  sending: boolean;
};

const sizeText = (bytes: number) =>
  bytes > 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** The files chosen or pasted, in the order they will be sent. */
export const AttachmentsPreview = ({
  files,
  caption,
  onCaption,
  onRemove,
  onCancel,
  onSend,
  sending,
}: AttachmentsPreviewProps) => {
  const { t } = useTranslation();
  const urls = useMemo(() => files.map((f) => (f.type.startsWith('image/') ? URL.createObjectURL(f) : '')), [files]);
  useEffect(
    () => () => {
      for (const url of urls) {
        if (url) {
          URL.revokeObjectURL(url);
        }
      }
    },
    [urls],
  );

  return (
    <Box sx={{ p: 1, borderTop: 1, borderColor: 'divider' }} data-testid="attachments-preview">
      <Typography variant="subtitle2">{t('tickets.composer.files', { count: files.length })}</Typography>
      <List dense sx={{ maxHeight: 200, overflowY: 'auto' }}>
        {files.map((file, index) => (
          <ListItem
            key={`${file.name}-${file.size}-${file.lastModified}`}
            secondaryAction={
              <IconButton edge="end" onClick={() => onRemove(index)} aria-label={t('tickets.composer.removeFile')}>
                <CloseIcon />
              </IconButton>
            }
          >
            <ListItemAvatar>
              <Avatar variant="rounded" src={urls[index] || undefined}>
                <InsertDriveFileIcon />
              </Avatar>
            </ListItemAvatar>
            <ListItemText primary={file.name} secondary={sizeText(file.size)} />
          </ListItem>
        ))}
      </List>
      <Stack direction="row" spacing={1} alignItems="center">
        <TextField
          size="small"
          fullWidth
          // a quick answer's text may hold line breaks, which a one-line input would drop
          multiline
          maxRows={4}
          placeholder={t('tickets.composer.caption')}
          value={caption}
          onChange={(e) => onCaption(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'attachments-caption' } }}
        />
        <Button onClick={onCancel} color="inherit" disabled={sending}>
          {t('tickets.composer.cancelFiles')}
        </Button>
        <Button
          variant="contained"
          onClick={onSend}
          disabled={sending || files.length === 0}
          data-testid="attachments-send"
        >
          {t('tickets.composer.send')}
        </Button>
      </Stack>
    </Box>
  );
};
