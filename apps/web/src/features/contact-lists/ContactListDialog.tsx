import { type TContactList, type TContactListBody, ZContactListBody } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { FormDialog, FormTextField } from '../../components/kit';
import './i18n';

type TContactListDialogProps = {
  open: boolean;
  /** null adds a list */
  list: TContactList | null;
  onSave: (id: number | null, body: TContactListBody) => Promise<void>;
  onClose: () => void;
};

/** Adds or renames a contact list: its name, 2 to 50 characters (spec 2 §5). */
export const ContactListDialog = ({ open, list, onSave, onClose }: TContactListDialogProps) => {
  const { t } = useTranslation();
  const isEdit = list !== null;

  return (
    <FormDialog<TContactListBody, TContactListBody>
      open={open}
      onClose={onClose}
      title={isEdit ? t('contactLists.dialog.editTitle') : t('contactLists.dialog.addTitle')}
      schema={ZContactListBody}
      defaultValues={{ name: list?.name ?? '' }}
      onSubmit={(body) => onSave(list?.id ?? null, body)}
      successMessage={t('contactLists.saved')}
      submitLabel={isEdit ? t('contactLists.dialog.save') : t('contactLists.dialog.add')}
      maxWidth="xs"
      testId="contact-list"
    >
      {(form) => (
        <FormTextField
          form={form}
          name="name"
          label={t('contactLists.dialog.name')}
          autoFocus
          required
          testId="contact-list-name"
        />
      )}
    </FormDialog>
  );
};
