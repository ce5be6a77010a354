import { events } from '@zelo/shared';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import type { TSessionUpdate } from './connectionsCache';
import type { TSessionEvent } from './useConnections';

/** the realtime session updates (`whatsappSession`) of one connection; nothing while `id` is null */
export const useSessionUpdates = (id: number | null, onUpdate: (session: TSessionUpdate) => void) => {
  const { user } = useAuth();
  useSocketEvent(user && id !== null ? events.whatsappSession(user.companyId) : '', (data: TSessionEvent) => {
    if (data.action === 'update' && data.session && Number(data.session.id) === id) onUpdate(data.session);
  });
};
