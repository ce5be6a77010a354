import { Visibility, VisibilityOff } from '@mui/icons-material';
import { IconButton, InputAdornment, Stack } from '@mui/material';
import { type TUser, type TUserUpdateBody, ZUserBody, ZUserUpdateBody } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useAuth } from '../../app/auth/AuthContext';
import { FormDialog, FormTextField } from '../../components/kit';
import './i18n';
import { UserAccessFields } from './UserAccessFields';
import { type TUserFormValues, toUserFormValues, toUserRequest } from './userForm';

type TUserDialogProps = {
  open: boolean;
  /** null adds a user */
  user: TUser | null;
  onSave: (id: number | null, body: TUserUpdateBody) => Promise<void>;
  onClose: () => void;
};

/** Adds or edits a user; profile, queues, connection and access are editable by admins only (spec 1 §6). */
export const UserDialog = ({ open, user, onSave, onClose }: TUserDialogProps) => {
  const { t } = useTranslation();
  const { isAdmin } = useAuth();
  const [showPassword, setShowPassword] = useState(false);
  const isEdit = user !== null;

  return (
    <FormDialog<TUserFormValues, TUserUpdateBody>
      open={open}
      onClose={onClose}
      title={isEdit ? t('users.dialog.editTitle') : t('users.dialog.addTitle')}
      schema={isEdit ? ZUserUpdateBody : ZUserBody}
      defaultValues={toUserFormValues(user)}
      onSubmit={(body) => onSave(user?.id ?? null, toUserRequest(body, isAdmin))}
      successMessage={t('users.saved')}
      submitLabel={isEdit ? t('users.dialog.save') : t('users.dialog.add')}
      testId="user"
    >
      {(form) => (
        <>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField form={form} name="name" label={t('users.dialog.name')} autoFocus testId="user-name" />
            <FormTextField
              form={form}
              name="password"
              label={t('users.dialog.password')}
              type={showPassword ? 'text' : 'password'}
              autoComplete="new-password"
              required={!isEdit}
              helperText={isEdit ? t('users.dialog.passwordHint') : undefined}
              testId="user-password"
              slotProps={{
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <IconButton
                        aria-label={t('users.dialog.showPassword')}
                        onClick={() => setShowPassword((v) => !v)}
                        edge="end"
                        size="small"
                      >
                        {showPassword ? <VisibilityOff /> : <Visibility />}
                      </IconButton>
                    </InputAdornment>
                  ),
                },
              }}
            />
          </Stack>
          <FormTextField
            form={form}
            name="email"
            label={t('users.dialog.email')}
            type="email"
            autoComplete="off"
            required
            testId="user-email"
          />
          <UserAccessFields control={form.control} canEditAccess={isAdmin} />
        </>
      )}
    </FormDialog>
  );
};
