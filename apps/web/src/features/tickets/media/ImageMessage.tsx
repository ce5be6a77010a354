import { Box, Dialog, IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useState } from 'react';

/** An image thumbnail that opens a lightbox. */
export const ImageMessage = ({ url, alt }: { url: string; alt: string }) => {
  const [open, setOpen] = useState(false);

  return (
    <>
      <Box
        component="img"
        src={url}
        alt={alt}
        loading="lazy"
        onClick={() => setOpen(true)}
        data-testid="message-image"
        sx={{ display: 'block', maxWidth: 260, maxHeight: 260, borderRadius: 1, cursor: 'zoom-in', objectFit: 'cover' }}
      />
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="lg" data-testid="image-lightbox">
        <IconButton
          onClick={() => setOpen(false)}
          sx={{ position: 'absolute', right: 8, top: 8, bgcolor: 'rgba(0,0,0,.4)', color: '#fff' }}
          aria-label="close"
        >
          <CloseIcon />
        </IconButton>
        <Box component="img" src={url} alt={alt} sx={{ display: 'block', maxWidth: '90vw', maxHeight: '85vh' }} />
      </Dialog>
    </>
  );
};
