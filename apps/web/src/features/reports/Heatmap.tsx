import { alpha, Box, Stack, Typography, useTheme } from '@mui/material';
import type { TReportHeatmap } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { EmptyNote } from './ReportCard';

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];
/** a cell's side at its narrowest: the grid scrolls sideways below this (a phone) */
const CELL_MIN = 24;
const LABEL_WIDTH = 40;

/** a count's share of the busiest cell as the cell's colour strength (empty cells faint, the busiest full) */
export const heatLevel = (count: number, max: number) => (count <= 0 || max <= 0 ? 0 : 0.15 + 0.85 * (count / max));

/**
 * The busiest hours: conversations started per weekday (rows, Monday first) and hour (columns 0–23) in the
 * company's zone, each cell coloured by its count against the busiest one.
 */
export const Heatmap = ({ heatmap }: { heatmap: TReportHeatmap }) => {
  const { t } = useTranslation();
  const theme = useTheme();
  if (heatmap.max === 0) {
    return <EmptyNote text={t('reports.charts.empty')} testId="reports-heatmap-empty" />;
  }
  const columns = `${LABEL_WIDTH}px repeat(24, minmax(${CELL_MIN}px, 1fr))`;
  const colourOf = (level: number) =>
    level === 0 ? theme.palette.action.hover : alpha(theme.palette.primary.main, level);

  return (
    <Box>
      <Box sx={{ overflowX: 'auto', pb: 1 }} data-testid="reports-heatmap-scroll">
        <Box
          role="table"
          aria-label={t('reports.charts.heatmap')}
          sx={{
            display: 'grid',
            gridTemplateColumns: columns,
            gap: '2px',
            minWidth: LABEL_WIDTH + 24 * (CELL_MIN + 2),
          }}
        >
          <Box role="row" sx={{ display: 'contents' }}>
            <Box role="columnheader" />
            {HOURS.map((h) => (
              <Typography
                key={h}
                role="columnheader"
                variant="caption"
                color="text.secondary"
                sx={{ textAlign: 'center', fontSize: 10 }}
              >
                {h}
              </Typography>
            ))}
          </Box>
          {WEEKDAYS.map((d) => (
            <Box key={d} role="row" sx={{ display: 'contents' }}>
              <Typography
                role="rowheader"
                variant="caption"
                color="text.secondary"
                sx={{ alignSelf: 'center', fontWeight: 600 }}
              >
                {t(`reports.weekdays.${d}`)}
              </Typography>
              {HOURS.map((h) => {
                const count = heatmap.cells[d]?.[h] ?? 0;
                const level = heatLevel(count, heatmap.max);
                const label = t('reports.charts.cell', { day: t(`reports.weekdays.${d}`), hour: h, count });

                return (
                  <Box
                    key={h}
                    role="cell"
                    title={label}
                    aria-label={label}
                    data-testid={`reports-heat-${d}-${h}`}
                    data-count={count}
                    sx={{
                      height: CELL_MIN + 4,
                      borderRadius: 0.5,
                      bgcolor: colourOf(level),
                      color: level > 0.55 ? theme.palette.primary.contrastText : theme.palette.text.primary,
                      fontSize: 10,
                      display: 'flex',
                      alignItems: 'center',
                      justifyContent: 'center',
                    }}
                  >
                    {count > 0 ? count : ''}
                  </Box>
                );
              })}
            </Box>
          ))}
        </Box>
      </Box>
      <Stack direction="row" spacing={1} alignItems="center" justifyContent="flex-end" sx={{ mt: 1 }}>
        <Typography variant="caption" color="text.secondary">
          {t('reports.charts.less')}
        </Typography>
        {[0, 0.25, 0.5, 0.75, 1].map((share) => (
          <Box
            key={share}
            sx={{ width: 14, height: 14, borderRadius: 0.5, bgcolor: colourOf(share === 0 ? 0 : 0.15 + 0.85 * share) }}
          />
        ))}
        <Typography variant="caption" color="text.secondary">
          {t('reports.charts.more')}
        </Typography>
      </Stack>
    </Box>
  );
};
