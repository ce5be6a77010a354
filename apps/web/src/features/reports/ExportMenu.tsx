import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Button, CircularProgress, IconButton, Menu, MenuItem, Tooltip } from '@mui/material';
import { REPORT_FORMATS, type TReportExport, type TReportFormat } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { toast } from '../../components/toast';
import { currentLanguage } from '../../i18n';
import { downloadReport } from './reportsApi';

type TExportChoice = { report: TReportExport; format: TReportFormat; label: string };

/**
 * A menu of exports (`GET /api/reports/export`) with the screen's filters and the interface's language: an icon
 * on a card (CSV / XLSX of that card's report), or a labelled button (`label`) with its own choices.
 */
export const ExportMenu = ({
  report,
  what,
  params,
  label,
  choices,
  testId,
}: {
  /** the card's report (its CSV and XLSX are the choices) */
  report?: TReportExport;
  /** what the card shows, for the icon's tooltip */
  what?: string;
  params: Record<string, string> | null;
  /** a button with this text instead of an icon */
  label?: string;
  choices?: TExportChoice[];
  testId: string;
}) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const items: TExportChoice[] =
    choices ??
    (report ? REPORT_FORMATS.map((format) => ({ report, format, label: t(`reports.export.${format}`) })) : []);

  const pick = async (choice: TExportChoice) => {
    setAnchor(null);
    if (!params) {
      return;
    }
    setBusy(true);
    try {
      await downloadReport(choice.report, choice.format, currentLanguage(), params);
    } catch {
      toast.error(t('reports.export.failed'));
    } finally {
      setBusy(false);
    }
  };
  const title = what ? t('reports.export.of', { what }) : t('reports.export.label');
  const icon = busy ? <CircularProgress size={18} /> : <FileDownloadIcon fontSize="small" />;

  return (
    <>
      {label ? (
        <Button
          variant="outlined"
          size="small"
          startIcon={icon}
          disabled={!params || busy}
          onClick={(e) => setAnchor(e.currentTarget)}
          data-testid={testId}
        >
          {label}
        </Button>
      ) : (
        <Tooltip title={title}>
          <span>
            <IconButton
              size="small"
              aria-label={title}
              disabled={!params || busy}
              onClick={(e) => setAnchor(e.currentTarget)}
              data-testid={testId}
            >
              {icon}
            </IconButton>
          </span>
        </Tooltip>
      )}
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {items.map((choice) => (
          <MenuItem
            key={`${choice.report}-${choice.format}`}
            onClick={() => void pick(choice)}
            data-testid={`${testId}-${choice.report}-${choice.format}`}
          >
            {choice.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
