import { events, type TSlaBreachEvent } from '@zelo/shared';
import { useCallback } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { toast } from '../../components/toast';
import { playNotificationSound } from '../tickets/notificationSound';
import './i18n';

/**
 * A missed service-level target (`company-{id}-sla`, sent once per breach to the ticket's agent — or its queue
 * while nobody has it — and the admins): the notification sound and a notice. Mounted once, in the top bar.
 */
export const useSlaAlerts = () => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const onBreach = useCallback(
    (data: TSlaBreachEvent) => {
      if (data.action !== 'breach') {
        return;
      }
      playNotificationSound();
      toast.error(t(`sla.breach.${data.kind}`, { name: data.contactName || `#${data.ticketId}` }));
    },
    [t],
  );
  useSocketEvent(user ? events.sla(user.companyId) : '', onBreach);
};
