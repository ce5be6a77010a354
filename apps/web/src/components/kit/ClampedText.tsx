import { Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A long text in a list cell: secondary, cut after `lines` lines, long words broken. */
export const ClampedText = ({ children, lines = 2 }: { children: ReactNode; lines?: number }) => (
  <Typography
    variant="body2"
    color="text.secondary"
    sx={{
      display: '-webkit-box',
      WebkitLineClamp: lines,
      WebkitBoxOrient: 'vertical',
      overflow: 'hidden',
      wordBreak: 'break-word',
    }}
  >
    {children}
  </Typography>
);
