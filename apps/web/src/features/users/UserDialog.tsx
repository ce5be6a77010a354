import { Dialog } from '@mui/material';
import type { TUser } from '@zelo/shared';
import './i18n';
import { UserForm } from './UserForm';

type TUserDialogProps = {
  open: boolean;
  /** null adds a user */
  user: TUser | null;
  onClose: () => void;
};

export const UserDialog = ({ open, user, onClose }: TUserDialogProps) => (
  <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth scroll="paper">
    {open && <UserForm key={user?.id ?? 'new'} user={user} onClose={onClose} />}
  </Dialog>
);
