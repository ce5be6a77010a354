import { DeleteOutline, Edit, EventRepeat } from '@mui/icons-material';
import {
  IconButton,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
} from '@mui/material';
import type { TCompany } from '@zelo/shared';
import { useTranslation } from 'react-i18next';
import { DUE_TONE_BACKGROUND, daysToDueDate, dueDateTone, formatDateOnly } from './dueDate';

type TCompaniesTableProps = {
  companies: TCompany[];
  isLoading: boolean;
  onEdit: (company: TCompany) => void;
  onExpire: (company: TCompany) => void;
  onDelete: (company: TCompany) => void;
};

const COLUMNS = 10;

export const CompaniesTable = ({ companies, isLoading, onEdit, onExpire, onDelete }: TCompaniesTableProps) => {
  const { t } = useTranslation();

  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t('settings.companies.name')}</TableCell>
            <TableCell>{t('settings.companies.email')}</TableCell>
            <TableCell>{t('settings.companies.phone')}</TableCell>
            <TableCell>{t('settings.companies.plan')}</TableCell>
            <TableCell align="center">{t('settings.companies.campaigns')}</TableCell>
            <TableCell align="center">{t('settings.companies.status')}</TableCell>
            <TableCell align="center">{t('settings.companies.createdAt')}</TableCell>
            <TableCell align="center">{t('settings.companies.dueDate')}</TableCell>
            <TableCell align="center">{t('settings.companies.recurrence')}</TableCell>
            <TableCell align="center">{t('settings.companies.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {companies.map((company) => {
            const tone = dueDateTone(daysToDueDate(company.dueDate));

            return (
              <TableRow
                key={company.id}
                hover
                data-testid={`company-row-${company.email}`}
                data-due-tone={tone ?? 'none'}
                sx={tone ? { bgcolor: DUE_TONE_BACKGROUND[tone] } : undefined}
              >
                <TableCell>{company.name}</TableCell>
                <TableCell>{company.email}</TableCell>
                <TableCell>{company.phone}</TableCell>
                <TableCell>{company.plan?.name ?? '-'}</TableCell>
                <TableCell align="center">
                  {company.campaignsEnabled
                    ? t('settings.companies.campaignsOn')
                    : t('settings.companies.campaignsOff')}
                </TableCell>
                <TableCell align="center">
                  {company.status ? t('settings.companies.active') : t('settings.companies.inactive')}
                </TableCell>
                <TableCell align="center">{formatDateOnly(company.createdAt)}</TableCell>
                <TableCell align="center">{formatDateOnly(company.dueDate) || '-'}</TableCell>
                <TableCell align="center">{t(`settings.companies.recurrences.${company.recurrence}`)}</TableCell>
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('settings.companies.expire')}>
                    <IconButton
                      size="small"
                      onClick={() => onExpire(company)}
                      data-testid={`company-expire-${company.email}`}
                    >
                      <EventRepeat fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('settings.actions.edit')}>
                    <IconButton
                      size="small"
                      onClick={() => onEdit(company)}
                      data-testid={`company-edit-${company.email}`}
                    >
                      <Edit fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('settings.actions.delete')}>
                    <IconButton
                      size="small"
                      onClick={() => onDelete(company)}
                      data-testid={`company-delete-${company.email}`}
                    >
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            );
          })}
          {!isLoading && companies.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS} align="center" sx={{ color: 'text.secondary' }}>
                {t('settings.companies.empty')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
