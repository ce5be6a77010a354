import { DeleteOutline, Edit } from '@mui/icons-material';
import {
  Box,
  Chip,
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
import { PLAN_FLAGS, type TPlan } from '@zelo/shared';
import { useTranslation } from 'react-i18next';

type TPlansTableProps = {
  plans: TPlan[];
  isLoading: boolean;
  onEdit: (plan: TPlan) => void;
  onDelete: (plan: TPlan) => void;
};

const COLUMNS = 7;

export const PlansTable = ({ plans, isLoading, onEdit, onDelete }: TPlansTableProps) => {
  const { t, i18n } = useTranslation();
  const money = new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'BRL' });

  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t('settings.plans.name')}</TableCell>
            <TableCell align="center">{t('settings.plans.users')}</TableCell>
            <TableCell align="center">{t('settings.plans.connections')}</TableCell>
            <TableCell align="center">{t('settings.plans.queues')}</TableCell>
            <TableCell align="right">{t('settings.plans.value')}</TableCell>
            <TableCell>{t('settings.plans.features')}</TableCell>
            <TableCell align="center">{t('settings.plans.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {plans.map((plan) => (
            <TableRow key={plan.id} hover data-testid={`plan-row-${plan.name}`}>
              <TableCell>{plan.name}</TableCell>
              <TableCell align="center">{plan.users}</TableCell>
              <TableCell align="center">{plan.connections}</TableCell>
              <TableCell align="center">{plan.queues}</TableCell>
              <TableCell align="right">{money.format(plan.value)}</TableCell>
              <TableCell>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {PLAN_FLAGS.filter((flag) => plan[flag]).map((flag) => (
                    <Chip key={flag} size="small" variant="outlined" label={t(`settings.plans.flags.${flag}`)} />
                  ))}
                </Box>
              </TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <Tooltip title={t('settings.actions.edit')}>
                  <IconButton size="small" onClick={() => onEdit(plan)} data-testid={`plan-edit-${plan.name}`}>
                    <Edit fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('settings.actions.delete')}>
                  <IconButton size="small" onClick={() => onDelete(plan)} data-testid={`plan-delete-${plan.name}`}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
          {!isLoading && plans.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS} align="center" sx={{ color: 'text.secondary' }}>
                {t('settings.plans.empty')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
