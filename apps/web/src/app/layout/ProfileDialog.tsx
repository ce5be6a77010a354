import { type TUserUpdateBody, ZUserBody, ZUserUpdateBody } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { fieldErrorText } from '../../components/form';
import { FormDialog, FormTextField } from '../../components/kit';
import { PasswordField } from '../../components/PasswordField';
import { useAuth } from '../auth/AuthContext';

/** The user's own name, e-mail and password (PUT /users/:id). */
const ZProfileForm = ZUserBody.pick({ name: true, email: true }).extend({ password: ZUserUpdateBody.shape.password });

type TProfileFormValues = { name: string; email: string; password: string };

type ProfileDialogProps = { open: boolean; onClose: () => void };

export const ProfileDialog = ({ open, onClose }: ProfileDialogProps) => {
  const { t } = useTranslation();
  const { user, refreshUser } = useAuth();
  if (!user) {
    return null;
  }

  return (
    <FormDialog<TProfileFormValues, TUserUpdateBody>
      open={open}
      onClose={onClose}
      title={t('profile.title')}
      schema={ZProfileForm}
      defaultValues={{ name: user.name, email: user.email, password: '' }}
      onSubmit={async (body) => {
        await api.put(`/users/${user.id}`, body);
        await refreshUser();
      }}
      successMessage={t('profile.saved')}
      testId="profile"
      maxWidth="xs"
    >
      {(form) => (
        <>
          <FormTextField form={form} name="name" label={t('profile.name')} autoFocus testId="profile-name" />
          <FormTextField form={form} name="email" label={t('profile.email')} type="email" testId="profile-email" />
          <PasswordField
            label={t('profile.password')}
            {...form.register('password')}
            error={Boolean(form.formState.errors.password)}
            helperText={fieldErrorText(t, form.formState.errors.password) ?? t('profile.passwordHint')}
            autoComplete="new-password"
            fullWidth
            testId="profile-password"
          />
        </>
      )}
    </FormDialog>
  );
};
