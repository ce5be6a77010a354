import { Autocomplete, Chip, InputAdornment, Stack, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from '../../i18n/useTranslation';
import type { TTagOption, TUserOption } from './ticketTypes';

type SearchFiltersProps = {
  text: string;
  onText: (text: string) => void;
  tags: TTagOption[];
  selectedTags: TTagOption[];
  onTags: (tags: TTagOption[]) => void;
  users: TUserOption[] | null;
  selectedUsers: TUserOption[];
  onUsers: (users: TUserOption[]) => void;
};

/** The search tab's filters: text, tags and (admins) users. */
export const SearchFilters = ({
  text,
  onText,
  tags,
  selectedTags,
  onTags,
  users,
  selectedUsers,
  onUsers,
}: SearchFiltersProps) => {
  const { t } = useTranslation();

  return (
    <Stack spacing={1} sx={{ p: 1 }}>
      <TextField
        size="small"
        autoFocus
        placeholder={t('tickets.search')}
        value={text}
        onChange={(e) => onText(e.target.value)}
        slotProps={{
          htmlInput: { 'data-testid': 'tickets-search-input', 'aria-label': t('tickets.search') },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <Autocomplete
        multiple
        size="small"
        options={tags}
        value={selectedTags}
        onChange={(_e, value) => onTags(value)}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        renderValue={(value, getItemProps) =>
          value.map((tag, index) => {
            const { key, ...props } = getItemProps({ index });

            return (
              <Chip key={key} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: '#fff' }} {...props} />
            );
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            placeholder={t('tickets.filterTags')}
            inputProps={{ ...params.inputProps, 'data-testid': 'tickets-filter-tags' }}
          />
        )}
      />
      {users ? (
        <Autocomplete
          multiple
          size="small"
          options={users}
          value={selectedUsers}
          onChange={(_e, value) => onUsers(value)}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          renderInput={(params) => (
            <TextField
              {...params}
              placeholder={t('tickets.filterUsers')}
              inputProps={{ ...params.inputProps, 'data-testid': 'tickets-filter-users' }}
            />
          )}
        />
      ) : null}
    </Stack>
  );
};
