import { Chip } from '@mui/material';
import type { TCampaignStatus } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { STATUS_COLOR } from './campaignLogic';
import './i18n';

/** A campaign's status as a coloured chip with its translated label. */
export const CampaignStatusChip = ({ status, testId }: { status: TCampaignStatus; testId?: string }) => {
  const { t } = useTranslation();

  return (
    <Chip
      size="small"
      variant="outlined"
      color={STATUS_COLOR[status] ?? 'default'}
      label={t(`campaigns.status.${status}`, { defaultValue: status })}
      data-testid={testId}
      data-status={status}
    />
  );
};
