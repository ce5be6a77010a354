import TimerOutlinedIcon from '@mui/icons-material/TimerOutlined';
import { Chip } from '@mui/material';
import type { TTicketSla } from '@zelo/shared';
import { memo } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { formatRemaining, slaState } from './slaClock';
import { useNow } from './useNow';
import './i18n';
import { Hint } from '../../components/Hint';

const COLORS = { ok: 'success', warn: 'warning', breached: 'error' } as const;

/** The time left to a ticket's service-level target (amber near it, red past it); nothing without a target. */
const SlaChipBase = ({
  ticket,
  testId,
}: {
  ticket: { id: number; status: string; sla?: TTicketSla | null };
  testId?: string;
}) => {
  const { t } = useTranslation();
  const now = useNow();
  const state = slaState(ticket, now);
  if (!state) {
    return null;
  }
  const time = formatRemaining(state.remainingMs);
  const label = state.level === 'breached' ? t('sla.late', { time }) : t('sla.left', { time });

  return (
    <Hint title={t(`sla.${state.kind}`)}>
      <Chip
        size="small"
        icon={<TimerOutlinedIcon />}
        color={COLORS[state.level]}
        variant={state.level === 'ok' ? 'outlined' : 'filled'}
        label={label}
        data-testid={testId ?? `sla-chip-${ticket.id}`}
        data-level={state.level}
        data-kind={state.kind}
        aria-label={`${t(`sla.${state.kind}`)}: ${label}`}
      />
    </Hint>
  );
};

export const SlaChip = memo(SlaChipBase);
