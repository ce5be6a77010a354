import { Chip } from '@mui/material';
import { useTranslation } from '../../i18n/useTranslation';
import { priorityColor, priorityKey } from './announcementLogic';
import './i18n';

/** The priority as a chip: high red, medium orange, low grey (spec 1 §9). */
export const PriorityChip = ({ priority }: { priority: number }) => {
  const { t } = useTranslation();

  return (
    <Chip
      size="small"
      color={priorityColor(priority)}
      label={t(`announcements.priorities.${priorityKey(priority)}`)}
      data-testid={`priority-${priority}`}
    />
  );
};
