import Download from '@mui/icons-material/Download';
import { Link } from '@mui/material';
import type { TContactListImportError, TContactListImportResult } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { ImportDialog } from '../../components/kit';
import { currentLanguage } from '../../i18n';
import { SAMPLE_SHEETS } from './i18n';
import type { TImportProgress } from './useContactLists';

type TContactListImportDialogProps = {
  open: boolean;
  contactListId: number;
  onClose: () => void;
  /** the server's `import-progress` events for this list (null before the first) */
  progress: TImportProgress | null;
  resetProgress: () => void;
  /** the import ended (the list's items changed) */
  onImported?: (result: TContactListImportResult) => void;
};

/** the text of a sample sheet as a link the browser downloads */
const sampleHref = () =>
  `data:text/csv;charset=utf-8,${encodeURIComponent(`\uFEFF${SAMPLE_SHEETS[currentLanguage()] ?? SAMPLE_SHEETS.pt}`)}`;

/** why a chosen file is not sent: a legacy .xls (save it as .xlsx), or not a spreadsheet at all */
export const sheetRefusal = (fileName: string): 'legacyXls' | 'onlySheets' | null => {
  const name = fileName.toLowerCase();
  if (name.endsWith('.xls')) {
    return 'legacyXls';
  }

  return name.endsWith('.xlsx') || name.endsWith('.csv') ? null : 'onlySheets';
};

/**
 * Imports an .xlsx or .csv into a list: the server's progress while rows are written, then the counts and
 * each refused row with its row number and reason. A legacy .xls is turned away here already, with the
 * advice to save it as .xlsx (the server refuses it the same way).
 */
export const ContactListImportDialog = ({
  open,
  contactListId,
  onClose,
  progress,
  resetProgress,
  onImported,
}: TContactListImportDialogProps) => {
  const { t } = useTranslation();

  const refuse = (file: File) => {
    const refusal = sheetRefusal(file.name);

    return refusal ? t(`contactLists.import.${refusal}`) : null;
  };
  const rowText = (row: TContactListImportError) => {
    const reason = t(`validation.${row.reason}`, { defaultValue: row.reason });

    return row.field ? `${t(`contactLists.import.fields.${row.field}`)}: ${reason}` : reason;
  };

  return (
    <ImportDialog<TContactListImportResult>
      open={open}
      onClose={onClose}
      progress={progress}
      resetProgress={resetProgress}
      url={`/contact-lists/${contactListId}/upload`}
      accept=".xlsx,.csv,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
      refuse={refuse}
      i18nPrefix="contactLists.import"
      testId="contact-list-import"
      onImported={onImported}
      summarize={(result) => ({
        summary: t('contactLists.import.summary', {
          total: result.total,
          created: result.created,
          updated: result.updated,
          failed: result.errors.length,
        }),
        errors: result.errors.map((row) => ({
          key: `${row.row}-${row.field ?? ''}`,
          primary: t('contactLists.import.row', { row: row.row }),
          secondary: rowText(row),
          testId: `import-error-row-${row.row}`,
        })),
      })}
      extra={
        <Link
          href={sampleHref()}
          download="modelo-lista-contatos.csv"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 2 }}
          data-testid="contact-list-import-template"
        >
          <Download fontSize="small" aria-hidden />
          {t('contactLists.import.template')}
        </Link>
      }
    />
  );
};
