import { Autocomplete, Chip, TextField } from '@mui/material';
import type { TTicket } from '@zelo/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { toastError } from '../../components/toast';
import { ticketsApi } from './ticketsApi';
import type { TTagOption } from './ticketTypes';
import { useTagOptions } from './useCatalogue';

/** The ticket's tags as a multi-select, synced with POST /tags/sync on every change. */
export const TicketTags = ({ ticket }: { ticket: TTicket }) => {
  const { t } = useTranslation();
  const tags = useTagOptions();
  const [value, setValue] = useState<TTagOption[]>(ticket.tags ?? []);
  const tagKey = (ticket.tags ?? []).map((tag) => tag.id).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the ticket's tags when they change on the server
  useEffect(() => setValue(ticket.tags ?? []), [ticket.id, tagKey]);

  const onChange = async (next: TTagOption[]) => {
    const previous = value;
    setValue(next);
    try {
      await ticketsApi.syncTags(
        ticket.id,
        next.map((tag) => ({ id: tag.id })),
      );
    } catch (err) {
      setValue(previous);
      toastError(err);
    }
  };

  return (
    <Autocomplete
      multiple
      size="small"
      options={tags.data ?? []}
      value={value}
      onChange={(_e, next) => void onChange(next)}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      noOptionsText={t('tickets.tags.none')}
      renderValue={(selected, getItemProps) =>
        selected.map((tag, index) => {
          const { key, ...props } = getItemProps({ index });

          return <Chip key={key} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: '#fff' }} {...props} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          placeholder={value.length ? '' : t('tickets.tags.placeholder')}
          inputProps={{ ...params.inputProps, 'data-testid': 'ticket-tags-input' }}
        />
      )}
      sx={{ px: 2, py: 1 }}
      data-testid="ticket-tags"
    />
  );
};
