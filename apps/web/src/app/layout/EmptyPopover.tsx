import { Badge, IconButton, Popover, Typography } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { Hint } from '../../components/Hint';

type EmptyPopoverProps = {
  icon: ReactNode;
  label: string;
  emptyText: string;
  testId: string;
  count?: number;
  /** the list (given a function, it gets what closes the popover); without it the popover shows `emptyText` */
  children?: ReactNode | ((close: () => void) => ReactNode);
};

/** An app-bar button with a badge and a popover list (the internal chats). */
export const EmptyPopover = ({ icon, label, emptyText, testId, count = 0, children }: EmptyPopoverProps) => {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  return (
    <>
      <Hint title={label}>
        <IconButton
          color="inherit"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={label}
          data-testid={testId}
          data-count={count}
        >
          <Badge badgeContent={count} color="error" max={99}>
            {icon}
          </Badge>
        </IconButton>
      </Hint>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 320, maxHeight: 420 } } }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
          {label}
        </Typography>
        {(typeof children === 'function' ? children(() => setAnchor(null)) : children) ?? (
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid={`${testId}-empty`}>
            {emptyText}
          </Typography>
        )}
      </Popover>
    </>
  );
};
