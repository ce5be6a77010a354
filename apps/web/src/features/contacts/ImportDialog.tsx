import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/useTranslation';
import { ImportDialog as KitImportDialog } from '../../components/kit';
import { i18n } from '../../i18n';
import { CONTACTS_QUERY_KEY } from './contactsCache';
import type { TImportProgress } from './useContacts';

type TImportResult = {
  newContacts?: { contactName: string; contactId: number }[];
  errorBag?: { contactName: string; error: string; details?: { path: string; message: string }[] }[];
};

/** The text of one failed row: the error code's translation, then the fields at fault. */
const rowError = (row: NonNullable<TImportResult['errorBag']>[number]) => {
  const code = i18n.exists(`errors.${row.error}`) ? i18n.t(`errors.${row.error}`) : row.error;
  const details = (row.details ?? [])
    .map(
      (d) =>
        `${i18n.t(`contacts.import.fields.${d.path}`, { defaultValue: d.path })}: ${i18n.t(`validation.${d.message}`, { defaultValue: d.message })}`,
    )
    .join(' · ');

  return details || code;
};

type TImportDialogProps = {
  open: boolean;
  onClose: () => void;
  progress: TImportProgress | null;
  resetProgress: () => void;
};

/** Import contacts from an .xlsx workbook (columns name/Nome, number/Telefone, email/Email) with progress. */
export const ImportDialog = ({ open, onClose, progress, resetProgress }: TImportDialogProps) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();

  return (
    <KitImportDialog<TImportResult>
      open={open}
      onClose={onClose}
      progress={progress}
      resetProgress={resetProgress}
      url="/contacts/import"
      accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
      refuse={(file) => (file.name.toLowerCase().endsWith('.xlsx') ? null : t('contacts.import.onlyXlsx'))}
      i18nPrefix="contacts.import"
      testId="contacts-import"
      onImported={() => void queryClient.invalidateQueries({ queryKey: CONTACTS_QUERY_KEY })}
      summarize={(result) => {
        const errors = result?.errorBag ?? [];

        return {
          summary: t('contacts.import.summary', { created: result?.newContacts?.length ?? 0, failed: errors.length }),
          // rows have no id: the order is the sheet's
          errors: errors.map((row, index) => ({
            key: String(index),
            primary: row.contactName || t('contacts.import.noName'),
            secondary: rowError(row),
          })),
        };
      }}
    />
  );
};
