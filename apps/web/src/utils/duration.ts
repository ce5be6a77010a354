/**
 * A duration in seconds for people: "45 s", "3 min 20 s", "2 h 05 min", "1 d 4 h" (the two largest units, the
 * smaller one left out when it is zero); "—" when there is none (nothing was measured). Used by the reports.
 */
export const formatSeconds = (seconds: number | null | undefined): string => {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) {
    return '—';
  }
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) {
    return `${total} s`;
  }
  const minutes = Math.floor(total / 60);
  if (minutes < 60) {
    const rest = total % 60;

    return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    const rest = minutes % 60;

    return rest ? `${hours} h ${String(rest).padStart(2, '0')} min` : `${hours} h`;
  }
  const days = Math.floor(hours / 24);
  const rest = hours % 24;

  return rest ? `${days} d ${rest} h` : `${days} d`;
};
