import type { TFlowTestRunAnswer } from '@zelo/shared';
import { useEffect, useMemo } from 'react';
import { SimulatorConversation } from '../../simulator/SimulatorConversation';
import { timeline } from '../../simulator/simulatorState';
import { useSimulatorChat } from '../../simulator/useSimulatorChat';

/** The test customer's conversation, through the simulator's own pane (answers typed here go to the flow). */
export const TestRunChat = ({ run }: { run: TFlowTestRunAnswer }) => {
  const { state, dispatch, loadOutbox, deliver, markRead } = useSimulatorChat(run.connectionId, { persist: false });
  const customer = useMemo(() => ({ number: run.contactNumber, name: run.contactName }), [run]);

  useEffect(() => {
    dispatch({ type: 'addCustomer', customer });
    void loadOutbox(customer.number);
  }, [dispatch, loadOutbox, customer]);

  return (
    <SimulatorConversation
      customer={customer}
      items={timeline(state, customer.number)}
      connected
      onDeliver={(message, media) => deliver(customer, message, media)}
      onMarkRead={() => void markRead(customer)}
      onSeen={() => dispatch({ type: 'seen', number: customer.number })}
    />
  );
};
