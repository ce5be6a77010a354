import { ListItemText, MenuItem, Switch } from '@mui/material';
import type { TAwayAnswer } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { toast, toastError } from '../../components/toast';
import './i18n';

/**
 * The account menu's "away" switch: the signed-in user pauses automatic assignment for itself (stored on the
 * server, PUT /users/me/away, so every tab and colleague sees it). The session user is read again after it.
 */
export const AwayMenuItem = () => {
  const { t } = useTranslation();
  const { user, refreshUser } = useAuth();
  const [saving, setSaving] = useState(false);
  const [shown, setShown] = useState<boolean | null>(null);
  const away = shown ?? user?.away ?? false;

  const toggle = async () => {
    const next = !away;
    setSaving(true);
    setShown(next);
    try {
      const answer = await api.put<TAwayAnswer>('/users/me/away', { away: next });
      toast.success(t(answer.away ? 'assignment.away.on' : 'assignment.away.off'));
      await refreshUser().catch(() => undefined);
    } catch (err) {
      toastError(err);
    } finally {
      setShown(null);
      setSaving(false);
    }
  };

  return (
    <MenuItem onClick={() => void toggle()} disabled={saving} data-testid="away-toggle">
      <ListItemText primary={t('assignment.away.label')} secondary={t('assignment.away.hint')} />
      <Switch
        edge="end"
        checked={away}
        tabIndex={-1}
        slotProps={{ input: { 'aria-label': t('assignment.away.label'), 'aria-checked': away } }}
        data-testid="away-switch"
      />
    </MenuItem>
  );
};
