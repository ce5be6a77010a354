import { describe, expect, it } from 'vitest';
import { downloadQuickMessageFile, quickMessageFileName, sameOriginMediaPath } from './quickMessageFile';

describe('quick message files in the composer', () => {
  it('reads a /public file from the page origin, whatever host the API named', () => {
    const origin = 'https://app.example.com';
    expect(sameOriginMediaPath('http://localhost:8080/public/ab12.pdf', origin)).toBe('/public/ab12.pdf');
    expect(sameOriginMediaPath('/public/ab12.pdf', origin)).toBe('/public/ab12.pdf');
    expect(sameOriginMediaPath('https://cdn.example.net/files/x.pdf', origin)).toBe(
      'https://cdn.example.net/files/x.pdf',
    );
  });

  it('names the file by its attachment name, else by the stored name', () => {
    expect(quickMessageFileName({ mediaName: 'price_list.pdf', mediaPath: 'http://h/public/ab.pdf' })).toBe(
      'price_list.pdf',
    );
    expect(quickMessageFileName({ mediaName: null, mediaPath: 'http://h/public/ab.pdf' })).toBe('ab.pdf');
  });

  it('downloads the stored file into a File with its type', async () => {
    const asked: string[] = [];
    const fakeFetch = (async (url: string) => {
      asked.push(url);
      return new Response(new Blob(['%PDF-1.4'], { type: 'application/pdf' }));
    }) as unknown as typeof fetch;
    const file = await downloadQuickMessageFile(
      { mediaName: 'price_list.pdf', mediaPath: 'http://localhost:8080/public/ab.pdf' },
      fakeFetch,
      'https://app.example.com',
    );
    expect(asked).toEqual(['/public/ab.pdf']);
    expect(file.name).toBe('price_list.pdf');
    expect(file.type).toBe('application/pdf');
    expect(await file.text()).toBe('%PDF-1.4');
  });

  it('fails on a missing file or when there is no attachment', async () => {
    const notFound = (async () => new Response('', { status: 404 })) as unknown as typeof fetch;
    await expect(
      downloadQuickMessageFile({ mediaName: 'a.pdf', mediaPath: '/public/gone.pdf' }, notFound, 'http://x'),
    ).rejects.toThrow('HTTP 404');
    await expect(
      downloadQuickMessageFile({ mediaName: null, mediaPath: null }, notFound, 'http://x'),
    ).rejects.toThrow();
  });
});
