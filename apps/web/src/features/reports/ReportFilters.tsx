import {
  Autocomplete,
  Box,
  Button,
  Chip,
  FormControl,
  Grid,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
} from '@mui/material';
import { REPORT_GROUPINGS, type TReportGrouping } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { useAllQueues, useTagOptions, useUserOptions, useWhatsappOptions } from '../tickets/useCatalogue';
import { ID_LISTS, type TClock, type TIdList, type TReportFilter } from './reportFilter';

type TOption = { id: number; name: string; color?: string };

/** A multi-select of ids (queues, agents, connections, tags): empty means all of them. */
const IdsSelect = ({
  label,
  options,
  value,
  onChange,
  testId,
}: {
  label: string;
  options: TOption[];
  value: number[];
  onChange: (ids: number[]) => void;
  testId: string;
}) => {
  const { t } = useTranslation();
  const chosen = value.map((id) => options.find((o) => o.id === id) ?? { id, name: `#${id}` });

  return (
    <Autocomplete
      multiple
      size="small"
      limitTags={2}
      options={options}
      value={chosen}
      onChange={(_e, next) => onChange(next.map((o) => o.id))}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      renderOption={(props, option) => {
        const { key, ...rest } = props;

        return (
          <li key={key} {...rest} data-testid={`${testId}-option-${option.id}`}>
            {option.name}
          </li>
        );
      }}
      renderValue={(items, getItemProps) =>
        items.map((o, index) => {
          const { key, ...props } = getItemProps({ index });

          return (
            <Chip
              key={key}
              size="small"
              label={o.name}
              sx={o.color ? { bgcolor: o.color, color: '#fff' } : undefined}
              {...props}
            />
          );
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={value.length ? undefined : t('reports.filters.all')}
          InputLabelProps={{ ...params.InputLabelProps, shrink: true }}
          inputProps={{ ...params.inputProps, 'data-testid': testId }}
        />
      )}
    />
  );
};

/**
 * The reports' filter bar: the window's days (the answer's own window shown while the URL names none), the
 * grouping, the queue, agent, connection and tag lists, and the clock the durations are shown on. Every change is
 * applied at once (the page keeps it in the URL).
 */
export const ReportFilters = ({
  filter,
  shownWindow,
  windowError,
  onChange,
}: {
  filter: TReportFilter;
  /** the days the last answer covered (the server's default window when the URL names none) */
  shownWindow: { from: string; to: string } | null;
  windowError: 'order' | 'tooLong' | null;
  onChange: (next: TReportFilter) => void;
}) => {
  const { t } = useTranslation();
  const queues = useAllQueues();
  const users = useUserOptions();
  const whatsapps = useWhatsappOptions();
  const tags = useTagOptions();
  const set = (fields: Partial<TReportFilter>) => onChange({ ...filter, ...fields });
  const setIds = (list: TIdList) => (ids: number[]) => set({ [list]: ids });
  const errorText = windowError
    ? t(windowError === 'tooLong' ? 'reports.filters.windowTooLong' : 'reports.filters.windowOrder')
    : undefined;
  const filtered = Boolean(filter.from || filter.to || ID_LISTS.some((list) => filter[list].length));

  return (
    <Paper sx={{ p: 2 }} data-testid="reports-filters">
      <Grid container spacing={2} alignItems="flex-start">
        <Grid size={{ xs: 6, md: 3, lg: 2 }}>
          <TextField
            type="date"
            size="small"
            fullWidth
            label={t('reports.filters.from')}
            value={filter.from ?? shownWindow?.from ?? ''}
            error={Boolean(windowError)}
            helperText={errorText}
            onChange={(e) => set({ from: e.target.value || null })}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'reports-from' } }}
          />
        </Grid>
        <Grid size={{ xs: 6, md: 3, lg: 2 }}>
          <TextField
            type="date"
            size="small"
            fullWidth
            label={t('reports.filters.to')}
            value={filter.to ?? shownWindow?.to ?? ''}
            error={Boolean(windowError)}
            onChange={(e) => set({ to: e.target.value || null })}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'reports-to' } }}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3, lg: 2 }}>
          <FormControl fullWidth size="small">
            <InputLabel id="reports-group-by-label">{t('reports.filters.groupBy')}</InputLabel>
            <Select
              labelId="reports-group-by-label"
              label={t('reports.filters.groupBy')}
              value={filter.groupBy}
              onChange={(e) => set({ groupBy: e.target.value as TReportGrouping })}
              data-testid="reports-group-by"
            >
              {REPORT_GROUPINGS.map((g) => (
                <MenuItem key={g} value={g} data-testid={`reports-group-by-${g}`}>
                  {t(`reports.filters.groupings.${g}`)}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3, lg: 6 }}>
          <ToggleButtonGroup
            exclusive
            size="small"
            fullWidth
            color="primary"
            value={filter.clock}
            onChange={(_e, clock: TClock | null) => clock && set({ clock })}
            aria-label={t('reports.filters.clock')}
            data-testid="reports-clock"
            sx={{ maxWidth: { lg: 420 } }}
          >
            <ToggleButton value="business" data-testid="reports-clock-business" sx={{ textTransform: 'none' }}>
              {t('reports.filters.business')}
            </ToggleButton>
            <ToggleButton value="wall" data-testid="reports-clock-wall" sx={{ textTransform: 'none' }}>
              {t('reports.filters.wall')}
            </ToggleButton>
          </ToggleButtonGroup>
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <IdsSelect
            label={t('reports.filters.queues')}
            options={queues.data ?? []}
            value={filter.queueIds}
            onChange={setIds('queueIds')}
            testId="reports-filter-queues"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <IdsSelect
            label={t('reports.filters.agents')}
            options={users.data ?? []}
            value={filter.userIds}
            onChange={setIds('userIds')}
            testId="reports-filter-agents"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <IdsSelect
            label={t('reports.filters.connections')}
            options={whatsapps.data ?? []}
            value={filter.whatsappIds}
            onChange={setIds('whatsappIds')}
            testId="reports-filter-connections"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <IdsSelect
            label={t('reports.filters.tags')}
            options={tags.data ?? []}
            value={filter.tagIds}
            onChange={setIds('tagIds')}
            testId="reports-filter-tags"
          />
        </Grid>
      </Grid>
      {filtered ? (
        <Box sx={{ mt: 1, textAlign: 'right' }}>
          <Button
            size="small"
            onClick={() => set({ from: null, to: null, queueIds: [], userIds: [], whatsappIds: [], tagIds: [] })}
            data-testid="reports-clear"
          >
            {t('reports.filters.clear')}
          </Button>
        </Box>
      ) : null}
    </Paper>
  );
};
