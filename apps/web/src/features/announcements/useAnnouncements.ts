import { events, type TAnnouncement, type TAnnouncementBody, type TAnnouncementEvent } from '@zelo/shared';
import { api } from '../../api/http';
import { matchesSearch, useLiveList } from '../../components/kit';
import { managementChange } from './announcementLogic';

export const ANNOUNCEMENTS_QUERY_KEY = ['announcements', 'manage'] as const;

const LIST = {
  queryKey: ANNOUNCEMENTS_QUERY_KEY,
  itemsKey: 'records',
  matches: (a: TAnnouncement, search: string) => matchesSearch(search, a.title, a.text),
};

/** What a save does besides the fields: a new image to upload, or the stored one to remove. */
export type TImageChange = { upload: File } | { remove: true } | null;

/**
 * GET /announcements (the super user: every announcement) page by page, kept in step with saves, deletes and
 * `company-announcement` events.
 */
export const useAnnouncements = (searchParam: string) => {
  const list = useLiveList<TAnnouncement, TAnnouncementEvent>({
    ...LIST,
    path: '/announcements',
    searchParam,
    event: () => events.announcement(),
    toChange: managementChange,
  });

  return {
    ...list,
    /**
     * Saves the fields, then the image change. `onStored` hears the stored record before the image goes, so a
     * dialog whose upload failed saves again as an edit (not a second announcement).
     */
    save: async (
      id: number | null,
      body: TAnnouncementBody,
      image: TImageChange,
      onStored?: (record: TAnnouncement) => void,
    ) => {
      let saved =
        id === null
          ? await api.post<TAnnouncement>('/announcements', body)
          : await api.put<TAnnouncement>(`/announcements/${id}`, body);
      list.upsert(saved);
      onStored?.(saved);
      if (image && 'upload' in image) {
        const form = new FormData();
        form.append('file', image.upload, image.upload.name);
        saved = await api.upload<TAnnouncement>(`/announcements/${saved.id}/media-upload`, form);
      } else if (image && saved.mediaPath) {
        saved = await api.delete<TAnnouncement>(`/announcements/${saved.id}/media-upload`);
      }
      list.upsert(saved);

      return saved;
    },
  };
};
