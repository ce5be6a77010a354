import {
  Box,
  Card,
  CardContent,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { isNearBottom } from '../../hooks/useInfiniteScroll';

export type TColumn<T> = {
  key: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  align?: 'left' | 'center' | 'right';
  width?: number | string;
  /** the card's title on a phone; the first column when none is marked */
  primary?: boolean;
  /** left out of the phone card */
  hideOnPhone?: boolean;
};

/** Further attributes of a row (and of its card on a phone): `data-*` values and a background colour. */
export type TRowExtras = { bgcolor?: string } & { [data: `data-${string}`]: string | undefined };

export type TDataTableProps<T> = {
  rows: T[];
  columns: TColumn<T>[];
  getRowId: (row: T) => string | number;
  /** `data-testid` of a row (and of its card on a phone) */
  rowTestId?: (row: T) => string;
  rowExtras?: (row: T) => TRowExtras;
  /** the actions column (and the card's footer): usually `<RowActions …/>` */
  actions?: (row: T) => ReactNode;
  onRowClick?: (row: T) => void;
  isLoading: boolean;
  hasMore: boolean;
  onLoadMore: () => void;
  emptyText: string;
  /** the row height the virtualizer starts from before it measures one */
  estimateRowHeight?: number;
  testId?: string;
  sx?: SxProps<Theme>;
};

/** Lists up to this length render whole; longer ones render only the rows in view. */
export const VIRTUALIZE_AFTER = 100;

/**
 * The list table: sticky header, an actions column, the next page asked within 100 px of the bottom (and at
 * once while the first pages do not fill the screen), rows outside the view not rendered once the list is
 * long, and on a phone a card per row (primary column as its title, the others as label: value lines).
 */
export const DataTable = <T,>({
  rows,
  columns,
  getRowId,
  rowTestId,
  rowExtras,
  actions,
  onRowClick,
  isLoading,
  hasMore,
  onLoadMore,
  emptyText,
  estimateRowHeight,
  testId,
  sx,
}: TDataTableProps<T>) => {
  const { t } = useTranslation();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const $scroll = useRef<HTMLDivElement>(null);
  const isVirtual = rows.length > VIRTUALIZE_AFTER;

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => $scroll.current,
    estimateSize: () => estimateRowHeight ?? (isPhone ? 140 : 49),
    getItemKey: (index) => getRowId(rows[index] as T),
    overscan: 8,
    // before the container is measured (and in a server render) assume a screenful
    initialRect: { width: 0, height: 800 },
    enabled: isVirtual,
  });

  const loadMoreNearEnd = () => {
    const element = $scroll.current;
    if (element && hasMore && !isLoading && isNearBottom(element)) {
      onLoadMore();
    }
  };
  // a first page that does not fill a tall screen leaves nothing to scroll: keep loading until it does
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check only when the list grows or loading ends
  useEffect(loadMoreNearEnd, [rows.length, isLoading, hasMore]);

  const virtualItems = isVirtual ? virtualizer.getVirtualItems() : [];
  const visible = (
    isVirtual
      ? virtualItems.map((item) => ({ row: rows[item.index] as T, index: item.index }))
      : rows.map((row, index) => ({ row, index }))
  ).map(({ row, index }) => {
    const { bgcolor, ...data } = rowExtras?.(row) ?? {};

    return { row, index, bgcolor, data };
  });
  const padTop = isVirtual ? (virtualItems[0]?.start ?? 0) : 0;
  const padBottom = isVirtual ? virtualizer.getTotalSize() - (virtualItems.at(-1)?.end ?? 0) : 0;
  const measure = isVirtual ? virtualizer.measureElement : undefined;
  const colSpan = columns.length + (actions ? 1 : 0);

  const status = isLoading ? (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
      <CircularProgress size={24} aria-label={t('common.loading')} />
    </Box>
  ) : rows.length === 0 ? (
    <Typography
      align="center"
      color="text.secondary"
      sx={{ p: 2 }}
      data-testid={testId ? `${testId}-empty` : undefined}
    >
      {emptyText}
    </Typography>
  ) : null;

  const scrollSx: SxProps<Theme> = {
    flex: 1,
    minHeight: 200,
    // the layout's height is not fixed: bound the list so it scrolls (and pages) inside itself
    maxHeight: { xs: 'calc(100dvh - 220px)', sm: 'calc(100vh - 160px)' },
    overflowY: 'auto',
    ...sx,
  };

  if (isPhone) {
    const primary = columns.find((c) => c.primary) ?? columns[0];
    const details = columns.filter((c) => c !== primary && !c.hideOnPhone);

    return (
      <Box ref={$scroll} onScroll={loadMoreNearEnd} sx={scrollSx} data-testid={testId}>
        <Stack spacing={1} sx={{ pt: `${padTop}px`, pb: `${padBottom}px` }}>
          {visible.map(({ row, index, bgcolor, data }) => (
            <Card
              key={getRowId(row)}
              variant="outlined"
              ref={measure}
              data-index={index}
              data-testid={rowTestId?.(row)}
              {...data}
              onClick={onRowClick ? () => onRowClick(row) : undefined}
              sx={{ cursor: onRowClick ? 'pointer' : undefined, flexShrink: 0, bgcolor }}
            >
              <CardContent sx={{ pb: 1, '&:last-child': { pb: 1 } }}>
                {primary && (
                  <Box sx={{ fontWeight: 600, mb: 0.5, overflowWrap: 'anywhere' }}>{primary.render(row)}</Box>
                )}
                {details.map((column) => (
                  <Box key={column.key} sx={{ display: 'flex', gap: 1, alignItems: 'baseline', py: 0.25 }}>
                    <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
                      {column.header}
                    </Typography>
                    <Box sx={{ minWidth: 0, overflowWrap: 'anywhere', typography: 'body2' }}>{column.render(row)}</Box>
                  </Box>
                ))}
                {actions && (
                  <Box sx={{ display: 'flex', justifyContent: 'flex-end' }} onClick={(e) => e.stopPropagation()}>
                    {actions(row)}
                  </Box>
                )}
              </CardContent>
            </Card>
          ))}
        </Stack>
        {status}
      </Box>
    );
  }

  return (
    <TableContainer
      ref={$scroll}
      component={Paper}
      variant="outlined"
      onScroll={loadMoreNearEnd}
      sx={scrollSx}
      data-testid={testId}
    >
      <Table stickyHeader size="small">
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.key} align={column.align} sx={{ width: column.width }}>
                {column.header}
              </TableCell>
            ))}
            {actions && (
              // as narrow as its buttons (a bare 1 would mean 100% to sx)
              <TableCell align="center" sx={{ width: '1px', whiteSpace: 'nowrap' }}>
                {t('common.actions')}
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {padTop > 0 && (
            <TableRow aria-hidden>
              <TableCell colSpan={colSpan} sx={{ height: padTop, p: 0, border: 0 }} />
            </TableRow>
          )}
          {visible.map(({ row, index, bgcolor, data }) => (
            <TableRow
              key={getRowId(row)}
              hover
              ref={measure}
              data-index={index}
              data-testid={rowTestId?.(row)}
              {...data}
              onClick={onRowClick ? () => onRowClick(row) : undefined}
              sx={{ cursor: onRowClick ? 'pointer' : undefined, bgcolor }}
            >
              {columns.map((column) => (
                <TableCell key={column.key} align={column.align}>
                  {column.render(row)}
                </TableCell>
              ))}
              {actions && (
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
                  {actions(row)}
                </TableCell>
              )}
            </TableRow>
          ))}
          {padBottom > 0 && (
            <TableRow aria-hidden>
              <TableCell colSpan={colSpan} sx={{ height: padBottom, p: 0, border: 0 }} />
            </TableRow>
          )}
          {status && (
            <TableRow>
              <TableCell colSpan={colSpan} sx={{ border: 0 }}>
                {status}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
