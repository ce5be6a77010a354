import { Box, Checkbox, ListItemText, MenuItem, Select, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { TQueueOption } from './ticketTypes';

type QueueSelectProps = { options: TQueueOption[]; value: number[]; onChange: (ids: number[]) => void };

/** The manager's queue multi-select (the choice is kept locally, see useQueueSelection). */
export const QueueSelect = ({ options, value, onChange }: QueueSelectProps) => {
  const { t } = useTranslation();

  return (
    <Select
      multiple
      size="small"
      displayEmpty
      value={value}
      onChange={(e) => onChange(typeof e.target.value === 'string' ? [] : (e.target.value as number[]))}
      renderValue={() => (
        <Typography variant="body2" noWrap>
          {t('tickets.queues')} ({value.length}/{options.length})
        </Typography>
      )}
      inputProps={{ 'data-testid': 'tickets-queue-select', 'aria-label': t('tickets.queues') }}
      sx={{ minWidth: 130 }}
    >
      {options.map((queue) => (
        <MenuItem key={queue.id} value={queue.id} data-testid={`tickets-queue-option-${queue.id}`}>
          <Checkbox size="small" checked={value.includes(queue.id)} />
          <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: queue.color, mr: 1 }} />
          <ListItemText primary={queue.name} />
        </MenuItem>
      ))}
    </Select>
  );
};
