import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Box, Button, Checkbox, ListItemText, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import type { TQueueOption } from './ticketTypes';

type QueueSelectProps = { options: TQueueOption[]; value: number[]; onChange: (ids: number[]) => void };

/**
 * The manager's queue multi-select (the choice is kept locally, see useQueueSelection): a button that opens a
 * menu of checkable queues, which stays open while queues are ticked. A button and a menu rather than a Select
 * field: the menu is already in the first load and the form-field family is not (the inbox's JavaScript budget).
 */
export const QueueSelect = ({ options, value, onChange }: QueueSelectProps) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const toggle = (id: number) => onChange(value.includes(id) ? value.filter((v) => v !== id) : [...value, id]);

  return (
    <>
      <Button
        variant="outlined"
        color="inherit"
        size="small"
        endIcon={<ArrowDropDownIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="listbox"
        aria-expanded={Boolean(anchor)}
        aria-label={t('tickets.queues')}
        data-testid="tickets-queue-select"
        sx={{ minWidth: 130, textTransform: 'none', justifyContent: 'space-between', borderColor: 'divider' }}
      >
        {t('tickets.queues')} ({value.length}/{options.length})
      </Button>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { role: 'listbox', 'aria-multiselectable': true } }}
      >
        {options.map((queue) => (
          <MenuItem
            key={queue.id}
            role="option"
            aria-selected={value.includes(queue.id)}
            onClick={() => toggle(queue.id)}
            data-testid={`tickets-queue-option-${queue.id}`}
          >
            <Checkbox size="small" checked={value.includes(queue.id)} tabIndex={-1} />
            <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: queue.color, mr: 1 }} />
            <ListItemText primary={queue.name} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
