import { DeleteOutline, Edit } from '@mui/icons-material';
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
import type { THelp } from '@zelo/shared';
import { useTranslation } from 'react-i18next';

type THelpsTableProps = {
  helps: THelp[];
  isLoading: boolean;
  onEdit: (help: THelp) => void;
  onDelete: (help: THelp) => void;
};

export const HelpsTable = ({ helps, isLoading, onEdit, onDelete }: THelpsTableProps) => {
  const { t } = useTranslation();

  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t('settings.helps.titleField')}</TableCell>
            <TableCell>{t('settings.helps.description')}</TableCell>
            <TableCell>{t('settings.helps.video')}</TableCell>
            <TableCell align="center">{t('settings.helps.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {helps.map((help) => (
            <TableRow key={help.id} hover data-testid={`help-row-${help.title}`}>
              <TableCell>{help.title}</TableCell>
              <TableCell sx={{ maxWidth: 420, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {help.description}
              </TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{help.video}</TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <Tooltip title={t('settings.actions.edit')}>
                  <IconButton size="small" onClick={() => onEdit(help)} data-testid={`help-edit-${help.title}`}>
                    <Edit fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('settings.actions.delete')}>
                  <IconButton size="small" onClick={() => onDelete(help)} data-testid={`help-delete-${help.title}`}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
          {!isLoading && helps.length === 0 && (
            <TableRow>
              <TableCell colSpan={4} align="center" sx={{ color: 'text.secondary' }}>
                {t('settings.helps.empty')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
