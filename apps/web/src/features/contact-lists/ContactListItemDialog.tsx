import { type TContactListItem, type TContactListItemFields, ZContactListItemFields } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { FormDialog, FormTextField } from '../../components/kit';
import './i18n';

type TItemFormValues = { name: string; number: string; email: string };

type TContactListItemDialogProps = {
  open: boolean;
  /** null adds a contact to the list */
  item: TContactListItem | null;
  onSave: (id: number | null, body: TContactListItemFields) => Promise<void>;
  onClose: () => void;
};

/** Adds or edits a contact of a list: name 2 to 50, number 8 to 50 digits, optional valid e-mail (spec 2 §5). */
export const ContactListItemDialog = ({ open, item, onSave, onClose }: TContactListItemDialogProps) => {
  const { t } = useTranslation();
  const isEdit = item !== null;

  return (
    <FormDialog<TItemFormValues, TContactListItemFields>
      open={open}
      onClose={onClose}
      title={isEdit ? t('contactLists.items.dialog.editTitle') : t('contactLists.items.dialog.addTitle')}
      schema={ZContactListItemFields}
      defaultValues={{ name: item?.name ?? '', number: item?.number ?? '', email: item?.email ?? '' }}
      onSubmit={(body) => onSave(item?.id ?? null, body)}
      successMessage={t('contactLists.items.saved')}
      submitLabel={isEdit ? t('contactLists.items.dialog.save') : t('contactLists.items.dialog.add')}
      maxWidth="xs"
      testId="contact-list-item"
    >
      {(form) => (
        <>
          <FormTextField
            form={form}
            name="name"
            label={t('contactLists.items.dialog.name')}
            autoFocus
            required
            testId="contact-list-item-name"
          />
          <FormTextField
            form={form}
            name="number"
            label={t('contactLists.items.dialog.number')}
            helperText={t('contactLists.items.dialog.numberHint')}
            required
            testId="contact-list-item-number"
          />
          <FormTextField
            form={form}
            name="email"
            label={t('contactLists.items.dialog.email')}
            testId="contact-list-item-email"
          />
        </>
      )}
    </FormDialog>
  );
};
