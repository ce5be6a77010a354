import { Box } from '@mui/material';

export const VideoMessage = ({ url }: { url: string }) => (
  <Box
    component="video"
    controls
    preload="metadata"
    src={url}
    data-testid="message-video"
    sx={{ display: 'block', width: 280, maxWidth: '100%', borderRadius: 1 }}
  />
);
