/** A video code is the YouTube id; a pasted watch, share or embed address is reduced to its id. */
export const youtubeVideoId = (video: string): string => {
  const value = video.trim();
  const match = /(?:youtu\.be\/|[?&]v=|\/embed\/|\/shorts\/)([\w-]{6,})/.exec(value);

  return match ? match[1] : value;
};

export const youtubeEmbedUrl = (video: string) =>
  `https://www.youtube.com/embed/${encodeURIComponent(youtubeVideoId(video))}?autoplay=1&rel=0`;
