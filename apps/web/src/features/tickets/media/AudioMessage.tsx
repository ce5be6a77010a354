import { Box } from '@mui/material';

/** An audio player (voice notes and audio files). */
export const AudioMessage = ({ url }: { url: string }) => (
  <Box
    component="audio"
    controls
    preload="metadata"
    src={url}
    data-testid="message-audio"
    sx={{ width: 260, maxWidth: '100%' }}
  />
);
