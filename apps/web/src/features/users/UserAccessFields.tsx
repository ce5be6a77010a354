import {
  Box,
  Chip,
  FormControl,
  FormControlLabel,
  InputLabel,
  MenuItem,
  OutlinedInput,
  Select,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { PROFILES, type TUserUpdateBody } from '@zelo/shared';
import { type Control, Controller } from 'react-hook-form';
import { useTranslation } from '../../i18n/useTranslation';
import type { TUserFormValues } from './userForm';
import { useOptionList } from './useOptionList';

type TUserAccessFieldsProps = {
  control: Control<TUserFormValues, unknown, TUserUpdateBody>;
  /** profile, queues, connection and allTicket are editable only by admins (spec 1 §6) */
  canEditAccess: boolean;
};

export const UserAccessFields = ({ control, canEditAccess }: TUserAccessFieldsProps) => {
  const { t } = useTranslation();
  const { data: queues = [] } = useOptionList('/queue');
  const { data: connections = [] } = useOptionList('/whatsapp', { session: 0 });

  return (
    <Stack spacing={2}>
      <Controller
        name="profile"
        control={control}
        render={({ field }) => (
          <TextField
            {...field}
            select
            fullWidth
            label={t('users.dialog.profile')}
            disabled={!canEditAccess}
            slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'user-profile' } }}
          >
            {PROFILES.map((profile) => (
              <option key={profile} value={profile}>
                {t(`users.profiles.${profile}`)}
              </option>
            ))}
          </TextField>
        )}
      />
      <Controller
        name="queueIds"
        control={control}
        render={({ field }) => (
          <FormControl fullWidth disabled={!canEditAccess}>
            <InputLabel id="user-queues-label">{t('users.dialog.queues')}</InputLabel>
            <Select
              labelId="user-queues-label"
              multiple
              value={field.value}
              onChange={(e) => {
                const value = e.target.value;
                field.onChange(typeof value === 'string' ? [] : value);
              }}
              onBlur={field.onBlur}
              input={<OutlinedInput label={t('users.dialog.queues')} />}
              data-testid="user-queues"
              renderValue={(selected) => (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {selected.map((id) => {
                    const queue = queues.find((q) => q.id === id);

                    return queue ? (
                      <Chip
                        key={id}
                        size="small"
                        label={queue.name}
                        sx={{ bgcolor: queue.color, color: queue.color ? '#fff' : undefined }}
                      />
                    ) : null;
                  })}
                </Box>
              )}
            >
              {queues.length === 0 && (
                <MenuItem disabled value={-1}>
                  {t('users.dialog.noQueues')}
                </MenuItem>
              )}
              {queues.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        )}
      />
      <Controller
        name="whatsappId"
        control={control}
        render={({ field }) => (
          <FormControl fullWidth disabled={!canEditAccess}>
            <InputLabel id="user-whatsapp-label">{t('users.dialog.whatsapp')}</InputLabel>
            <Select
              labelId="user-whatsapp-label"
              label={t('users.dialog.whatsapp')}
              value={field.value === null ? '' : String(field.value)}
              onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
              onBlur={field.onBlur}
              data-testid="user-whatsapp"
            >
              <MenuItem value="">
                <em>{t('users.dialog.noWhatsapp')}</em>
              </MenuItem>
              {connections.map((connection) => (
                <MenuItem key={connection.id} value={String(connection.id)}>
                  {connection.name}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        )}
      />
      <Controller
        name="allTicket"
        control={control}
        render={({ field }) => (
          <FormControlLabel
            disabled={!canEditAccess}
            label={t('users.dialog.allTicket')}
            control={
              <Switch
                checked={field.value === 'enabled'}
                onChange={(e) => field.onChange(e.target.checked ? 'enabled' : 'desabled')}
                slotProps={{ input: { 'data-testid': 'user-allticket' } as object }}
              />
            }
          />
        )}
      />
      <Controller
        name="canSeeTicketsWithoutQueue"
        control={control}
        render={({ field }) => (
          <FormControlLabel
            disabled={!canEditAccess}
            label={t('users.dialog.ticketWithoutQueue')}
            control={
              <Switch
                checked={field.value}
                onChange={(e) => field.onChange(e.target.checked)}
                slotProps={{ input: { 'data-testid': 'user-without-queue' } as object }}
              />
            }
          />
        )}
      />
    </Stack>
  );
};
