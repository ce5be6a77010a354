import CloudQueue from '@mui/icons-material/CloudQueue';
import QrCode2 from '@mui/icons-material/QrCode2';
import Science from '@mui/icons-material/Science';
import { Chip } from '@mui/material';
import type { TChannelProvider } from '@zelo/shared';
import type { ReactElement } from 'react';
import { useTranslation } from '../../i18n/useTranslation';

/** One icon per transport, in the table and in the editor's provider choice. */
export const PROVIDER_ICONS: Record<TChannelProvider, ReactElement> = {
  sandbox: <Science fontSize="small" />,
  baileys: <QrCode2 fontSize="small" />,
  'cloud-api': <CloudQueue fontSize="small" />,
};

const COLORS: Record<TChannelProvider, 'default' | 'primary' | 'secondary'> = {
  sandbox: 'default',
  baileys: 'primary',
  'cloud-api': 'secondary',
};

/** The transport of a connection as a small chip: icon and name. */
export const ProviderChip = ({ provider, testId }: { provider: TChannelProvider; testId?: string }) => {
  const { t } = useTranslation();

  return (
    <Chip
      size="small"
      variant="outlined"
      color={COLORS[provider]}
      icon={PROVIDER_ICONS[provider]}
      label={t(`connections.providers.${provider}`)}
      data-testid={testId}
      data-provider={provider}
    />
  );
};
