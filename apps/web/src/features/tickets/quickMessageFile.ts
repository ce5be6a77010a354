import type { TQuickMessage } from '@zelo/shared';

/**
 * Where the browser fetches a stored file from: the API answers absolute URLs under PUBLIC_URL, which may
 * name another host than the page (a proxy, a dev server); a `/public/…` file is read from the page's own
 * origin, which serves (or proxies) it and needs no cross-origin permission.
 */
export const sameOriginMediaPath = (mediaPath: string, origin: string) => {
  try {
    const url = new URL(mediaPath, origin);

    return url.pathname.startsWith('/public/') ? url.pathname : url.href;
  } catch {
    return mediaPath;
  }
};

/** the name the file is sent under: the quick message's attachment name, else the stored file's */
export const quickMessageFileName = (q: Pick<TQuickMessage, 'mediaName' | 'mediaPath'>) =>
  q.mediaName || (q.mediaPath ?? '').split('/').pop() || 'file';

/** The quick message's stored file as a File, ready for the composer's media send. */
export const downloadQuickMessageFile = async (
  q: Pick<TQuickMessage, 'mediaName' | 'mediaPath'>,
  fetcher: typeof fetch = fetch,
  origin: string = window.location.origin,
): Promise<File> => {
  if (!q.mediaPath) {
    throw new Error('no attachment');
  }
  const res = await fetcher(sameOriginMediaPath(q.mediaPath, origin));
  if (!res.ok) {
    throw new Error(`HTTP ${res.status}`);
  }
  const blob = await res.blob();

  return new File([blob], quickMessageFileName(q), { type: blob.type || 'application/octet-stream' });
};
