import Close from '@mui/icons-material/Close';
import PersonAdd from '@mui/icons-material/PersonAdd';
import {
  Avatar,
  Badge,
  Box,
  Button,
  Divider,
  IconButton,
  List,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { sandboxGroupId } from '@zelo/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { toast } from '../../components/toast';
import { stripWhatsAppFormat } from '../../components/whatsappFormat';
import { avatarColor, initials } from './avatar';
import { SimulatorConversation } from './SimulatorConversation';
import { isValidNumber, normalizeNumber, type TCustomer, timeline, unreadCount } from './simulatorState';
import { useSimulatorChat } from './useSimulatorChat';

type TWorkspaceProps = { connectionId: number; connected: boolean };

/** Customers on the left, the chosen customer's conversation on the right. */
export const SimulatorWorkspace = ({ connectionId, connected }: TWorkspaceProps) => {
  const { t } = useTranslation();
  const { state, dispatch, loadOutbox, deliver, markRead, call } = useSimulatorChat(connectionId, { persist: true });
  const [selected, setSelected] = useState<string | null>(() => state.customers[0]?.number ?? null);
  // on a phone (under 600 px) the customers and the conversation take turns, each the whole width
  const narrow = useMediaQuery('(max-width:599.95px)');
  const [listShown, setListShown] = useState(true);
  const open = (number: string) => {
    setSelected(number);
    setListShown(false);
  };
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [groupName, setGroupName] = useState('');

  useEffect(() => {
    if (selected) {
      void loadOutbox(selected);
    }
  }, [selected, loadOutbox]);

  const current = state.customers.find((c) => c.number === selected) ?? null;
  const items = selected ? timeline(state, selected) : [];

  const addCustomer = () => {
    const digits = normalizeNumber(number);
    if (!isValidNumber(digits)) {
      toast.error(t('simulator.invalidNumber'));

      return;
    }
    const member = { number: digits, name: name.trim() || digits };
    // with a group name the conversation is the group's, where this customer writes
    const customer: TCustomer = groupName.trim()
      ? { number: sandboxGroupId(groupName), name: groupName.trim(), member }
      : member;
    dispatch({ type: 'addCustomer', customer });
    open(customer.number);
    setNumber('');
    setName('');
    setGroupName('');
  };

  const removeCustomer = (target: string) => {
    dispatch({ type: 'removeCustomer', number: target });
    if (selected === target) {
      setSelected(state.customers.find((c) => c.number !== target)?.number ?? null);
    }
  };

  return (
    <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, display: 'flex', overflow: 'hidden' }}>
      <Box
        sx={{
          width: narrow ? '100%' : { sm: 240, md: 300 },
          flexShrink: 0,
          borderRight: narrow ? 0 : 1,
          borderColor: 'divider',
          display: narrow && current && !listShown ? 'none' : 'flex',
          flexDirection: 'column',
        }}
        data-testid="sim-customers-pane"
      >
        <Stack spacing={1} sx={{ p: 1.5 }}>
          <TextField
            size="small"
            label={t('simulator.number')}
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                addCustomer();
              }
            }}
            helperText={t('simulator.numberHint')}
            slotProps={{ htmlInput: { inputMode: 'tel', 'data-testid': 'sim-number' } }}
          />
          <TextField
            size="small"
            label={t('simulator.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                addCustomer();
              }
            }}
            slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'sim-name' } }}
          />
          <TextField
            size="small"
            label={t('simulator.groupName')}
            value={groupName}
            onChange={(e) => setGroupName(e.target.value)}
            helperText={t('simulator.groupHint')}
            slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'sim-group' } }}
          />
          <Button variant="outlined" startIcon={<PersonAdd />} onClick={addCustomer} data-testid="sim-add-customer">
            {t('simulator.addCustomer')}
          </Button>
        </Stack>
        <Divider />
        <List dense sx={{ flex: 1, overflowY: 'auto', py: 0 }} data-testid="sim-customers">
          {state.customers.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              {t('simulator.noCustomers')}
            </Typography>
          )}
          {state.customers.map((customer) => {
            const unread = customer.number === selected ? 0 : unreadCount(state, customer.number);
            const last = timeline(state, customer.number).at(-1);
            const preview = last
              ? last.direction === 'out'
                ? last.message.body || t(`simulator.types.${last.message.type}`)
                : stripWhatsAppFormat(last.message.body) || t('simulator.types.media')
              : customer.number;

            return (
              <ListItemButton
                key={customer.number}
                selected={customer.number === selected}
                onClick={() => open(customer.number)}
                data-testid={`sim-customer-${customer.number}`}
                sx={{ pr: 5, position: 'relative' }}
              >
                <ListItemAvatar sx={{ minWidth: 48 }}>
                  <Badge badgeContent={unread} color="success">
                    <Avatar sx={{ bgcolor: avatarColor(customer.number), width: 36, height: 36, fontSize: 15 }}>
                      {initials(customer.name)}
                    </Avatar>
                  </Badge>
                </ListItemAvatar>
                <ListItemText
                  primary={customer.name}
                  secondary={preview}
                  slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                />
                <Tooltip title={t('simulator.removeCustomer')}>
                  <IconButton
                    size="small"
                    edge="end"
                    sx={{ position: 'absolute', right: 8 }}
                    onClick={(e) => {
                      e.stopPropagation();
                      removeCustomer(customer.number);
                    }}
                    aria-label={t('simulator.removeCustomer')}
                  >
                    <Close fontSize="small" />
                  </IconButton>
                </Tooltip>
              </ListItemButton>
            );
          })}
        </List>
      </Box>

      <Box
        sx={{
          flex: 1,
          minWidth: 0,
          display: narrow && (!current || listShown) ? 'none' : 'flex',
          flexDirection: 'column',
        }}
        data-testid="sim-conversation-pane"
      >
        {current ? (
          <SimulatorConversation
            customer={current}
            onBack={narrow ? () => setListShown(true) : undefined}
            items={items}
            connected={connected}
            onDeliver={(message, media) => deliver(current, message, media)}
            onMarkRead={() => void markRead(current)}
            onSeen={() => dispatch({ type: 'seen', number: current.number })}
            onCall={(isVideo) => void call(current, isVideo)}
          />
        ) : (
          <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', p: 4 }}>
            <Typography color="text.secondary">{t('simulator.pickCustomer')}</Typography>
          </Box>
        )}
      </Box>
    </Paper>
  );
};
