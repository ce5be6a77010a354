import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataTable, type TDataTableProps, VIRTUALIZE_AFTER } from './DataTable';

type TRow = { id: number; name: string };
const rows = (n: number): TRow[] => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `row ${i + 1}` }));

const render = (list: TRow[], extra: { isLoading?: boolean; rowExtras?: TDataTableProps<TRow>['rowExtras'] } = {}) =>
  renderToString(
    <DataTable
      rows={list}
      columns={[{ key: 'name', header: 'Name', render: (row) => row.name }]}
      getRowId={(row) => row.id}
      rowTestId={(row) => `row-${row.id}`}
      rowExtras={extra.rowExtras}
      isLoading={extra.isLoading ?? false}
      hasMore={false}
      onLoadMore={() => {}}
      emptyText="nothing here"
      testId="table"
    />,
  );

const renderedRows = (html: string) => html.match(/data-testid="row-\d+"/g)?.length ?? 0;

describe('DataTable', () => {
  it('renders a short list whole', () => {
    const html = render(rows(VIRTUALIZE_AFTER));
    expect(renderedRows(html)).toBe(VIRTUALIZE_AFTER);
  });

  it('renders only a window of a long list (10,000 rows)', () => {
    const html = render(rows(10_000));
    const count = renderedRows(html);
    expect(count).toBeGreaterThan(5);
    expect(count).toBeLessThan(60);
    expect(html).toContain('data-testid="row-1"');
    expect(html).not.toContain('data-testid="row-10000"');
  });

  it('says when the list is empty, and not while it loads', () => {
    expect(render([])).toContain('nothing here');
    expect(render([], { isLoading: true })).not.toContain('nothing here');
  });

  it('puts the extra data attributes and background of a row on it', () => {
    const html = render(rows(2), {
      rowExtras: (row) => ({
        'data-tone': row.id === 1 ? 'red' : 'none',
        bgcolor: row.id === 1 ? 'rgb(1, 2, 3)' : undefined,
      }),
    });
    expect(html).toMatch(/data-testid="row-1" data-tone="red"/);
    expect(html).toMatch(/data-testid="row-2" data-tone="none"/);
    expect(html).toContain('background-color:rgb(1, 2, 3)');
  });
});
