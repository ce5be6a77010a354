import { describe, expect, it } from 'vitest';
import { filterOfSearch, reportParams, searchOfFilter, windowError } from './reportFilter';

const search = (text: string) => new URLSearchParams(text);

describe('the reports filter in the URL', () => {
  it('reads the defaults from an empty URL: the server’s window, every list, by day, business time', () => {
    const filter = filterOfSearch(search(''));
    expect(filter).toEqual({
      from: null,
      to: null,
      groupBy: 'day',
      clock: 'business',
      queueIds: [],
      userIds: [],
      whatsappIds: [],
      tagIds: [],
    });
    expect(reportParams(filter)).toEqual({ groupBy: 'day' });
    expect(searchOfFilter(filter).toString()).toBe('');
  });

  it('reads days, id lists, grouping and clock, dropping what is not valid', () => {
    const filter = filterOfSearch(
      search('from=2025-03-01&to=2025-03-31&queueIds=5,2,x,2,-1&userIds=7&tagIds=&groupBy=year&clock=wall'),
    );
    expect(filter).toMatchObject({
      from: '2025-03-01',
      to: '2025-03-31',
      queueIds: [2, 5],
      userIds: [7],
      tagIds: [],
      groupBy: 'day',
      clock: 'wall',
    });
    expect(filterOfSearch(search('from=1/3/2025&groupBy=month')).from).toBeNull();
    expect(filterOfSearch(search('groupBy=month')).groupBy).toBe('month');
  });

  it('sends the filter as the API reads it (id lists as 1,2) and writes back only what differs', () => {
    const filter = filterOfSearch(search('from=2025-03-01&queueIds=2,5&whatsappIds=9&groupBy=week&clock=wall'));
    expect(reportParams(filter)).toEqual({ from: '2025-03-01', queueIds: '2,5', whatsappIds: '9', groupBy: 'week' });
    const back = searchOfFilter(filter);
    expect(Object.fromEntries(back)).toEqual({
      from: '2025-03-01',
      queueIds: '2,5',
      whatsappIds: '9',
      groupBy: 'week',
      clock: 'wall',
    });
    expect(filterOfSearch(back)).toEqual(filter);
  });

  it('says why the server would refuse a window, with its own schema', () => {
    const of = (text: string) => windowError(filterOfSearch(search(text)));
    expect(of('from=2025-03-01&to=2025-03-31')).toBeNull();
    expect(of('from=2025-03-31&to=2025-03-01')).toBe('order');
    expect(of('from=2024-01-01&to=2025-03-01')).toBe('tooLong');
    expect(of('from=2025-02-30')).toBe('order');
  });
});
