import { events } from '@zelo/shared';
import { useCallback, useEffect, useReducer } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { errorText, toast, toastError } from '../../components/toast';
import {
  emptyState,
  persistable,
  restoreState,
  simulatorReducer,
  type TCustomer,
  type TOutboxMessage,
  type TSandboxEvent,
  type TSentMessage,
} from './simulatorState';

const storageKey = (connectionId: number) => `zelo.simulator.${connectionId}`;

const outboxList = (data: unknown): TOutboxMessage[] => {
  if (Array.isArray(data)) {
    return data as TOutboxMessage[];
  }
  const holder = (data ?? {}) as Record<string, unknown>;
  const list = holder.messages ?? holder.outbox ?? holder.records;

  return Array.isArray(list) ? (list as TOutboxMessage[]) : [];
};

let localIds = 0;
const localId = () => `local-${Date.now().toString(36)}-${(localIds++).toString(36)}`;

export type TDeliverMessage = Omit<TSentMessage, 'localId' | 'externalId' | 'timestamp' | 'status'>;
export type TDeliverMedia = { data: string; mimetype: string; fileName: string };

/**
 * The customers of one sandbox connection and their conversations: what they sent (POST /sandbox/:id/inbound),
 * what the business sent them (its outbox, then the company's sandbox events). The simulator page keeps them
 * across reloads (`persist`); the flow editor's test run starts afresh each time.
 */
export const useSimulatorChat = (connectionId: number, { persist }: { persist: boolean }) => {
  const { user } = useAuth();
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(simulatorReducer, connectionId, (id) =>
    persist && typeof localStorage !== 'undefined' ? restoreState(localStorage.getItem(storageKey(id))) : emptyState(),
  );

  useEffect(() => {
    if (!persist) {
      return;
    }
    try {
      localStorage.setItem(storageKey(connectionId), JSON.stringify(persistable(state)));
    } catch {
      // storage full: the simulator still works for this page's life
    }
  }, [connectionId, state, persist]);

  const loadOutbox = useCallback(
    async (to: string) => {
      try {
        const data = await api.get<unknown>(`/sandbox/${connectionId}/outbox`, { params: { to } });
        dispatch({ type: 'outbox', number: to, messages: outboxList(data) });
      } catch (err) {
        toastError(err);
      }
    },
    [connectionId],
  );

  useSocketEvent(user ? events.sandbox(user.companyId) : '', (data: TSandboxEvent) => {
    if (!data || Number(data.connectionId) !== connectionId) {
      return;
    }
    if (data.action === 'read') {
      dispatch({ type: 'businessRead', number: data.from, externalIds: data.externalIds ?? [] });
    } else if (data.message) {
      dispatch({ type: 'received', message: data.message });
    }
  });

  /** POST /sandbox/:id/inbound as `customer` */
  const deliver = async (customer: TCustomer, message: TDeliverMessage, media?: TDeliverMedia) => {
    const id = localId();
    const to = customer.number;
    dispatch({
      type: 'sending',
      number: to,
      message: { ...message, localId: id, externalId: null, timestamp: new Date().toISOString(), status: 'sending' },
    });
    try {
      const answer = await api.post<{ externalId: string }>(`/sandbox/${connectionId}/inbound`, {
        // in a group the member writes, the group is named beside
        from: customer.member?.number ?? to,
        name: customer.member?.name ?? customer.name,
        ...(customer.member ? { group: { id: to, name: customer.name } } : {}),
        type: message.type,
        body: message.body,
        ...(media ? { media } : {}),
        ...(message.location ? { location: message.location } : {}),
        ...(message.vcard ? { vcard: message.vcard } : {}),
      });
      dispatch({ type: 'sent', number: to, localId: id, externalId: answer.externalId });
    } catch (err) {
      dispatch({ type: 'failed', number: to, localId: id, error: errorText(err) });
      toastError(err);
    }
  };

  /** the customer read everything the business sent */
  const markRead = async (customer: TCustomer) => {
    try {
      await api.post(`/sandbox/${connectionId}/read`, { to: customer.number });
      await loadOutbox(customer.number);
    } catch (err) {
      toastError(err);
    }
  };

  /** the customer calls the business (voice or video), as WhatsApp shows a call to the attendants */
  const call = async (customer: TCustomer, isVideo: boolean) => {
    try {
      await api.post(`/sandbox/${connectionId}/call`, { from: customer.number, isVideo });
      toast.success(t('simulator.callSent'));
    } catch (err) {
      toastError(err);
    }
  };

  return { state, dispatch, loadOutbox, deliver, markRead, call };
};
