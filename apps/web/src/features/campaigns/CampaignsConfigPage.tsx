import { Add, DeleteOutline } from '@mui/icons-material';
import {
  Box,
  Button,
  CircularProgress,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { CAMPAIGN_LONGER_INTERVALS, CAMPAIGN_MESSAGE_INTERVALS, type TCampaignSettings } from '@zelo/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { toast, toastError } from '../../components/toast';
import { addVariable, removeVariable, type TVariable, variableProblem } from './campaignLogic';
import './i18n';
import {
  CAMPAIGN_SETTINGS_KEY,
  saveCampaignSettings,
  settingsOrDefaults,
  useCampaignSettings,
} from './useCampaignSettings';

type TIntervalField = 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval';

/** The three selects of spec 2 §9 with their option lists and how their 0 reads. */
const INTERVAL_FIELDS: { field: TIntervalField; options: readonly number[]; zero: string; unit: string }[] = [
  { field: 'messageInterval', options: CAMPAIGN_MESSAGE_INTERVALS, zero: 'noInterval', unit: 'seconds' },
  { field: 'longerIntervalAfter', options: CAMPAIGN_LONGER_INTERVALS, zero: 'notDefined', unit: 'messages' },
  { field: 'greaterInterval', options: CAMPAIGN_LONGER_INTERVALS, zero: 'noInterval', unit: 'seconds' },
];

/**
 * /campaigns-config: the sending intervals (random 0…messageInterval s per message, greaterInterval s after every
 * longerIntervalAfter messages) and the company's variables, usable as {key} in campaign messages. Changes stay on
 * the page until "save".
 */
const CampaignsConfigPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useCampaignSettings();
  const [draft, setDraft] = useState<TCampaignSettings>(settingsOrDefaults(query.data));
  const [candidate, setCandidate] = useState<TVariable>({ key: '', value: '' });
  const [saving, setSaving] = useState(false);

  // the stored settings replace the draft when they arrive (or another admin saves)
  useEffect(() => {
    if (query.data) {
      setDraft(query.data);
    }
  }, [query.data]);

  const problem = candidate.key ? variableProblem(draft.variables, candidate) : null;
  const onAdd = () => {
    if (variableProblem(draft.variables, candidate) === null) {
      setDraft((d) => ({ ...d, variables: addVariable(d.variables, candidate) }));
      setCandidate({ key: '', value: '' });
    }
  };
  const onSave = async () => {
    setSaving(true);
    try {
      const saved = await saveCampaignSettings(draft);
      queryClient.setQueryData(CAMPAIGN_SETTINGS_KEY, saved);
      toast.success(t('campaigns.toasts.configSaved'));
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  };
  const optionLabel = (value: number, zero: string, unit: string) =>
    value === 0 ? t(`campaigns.config.${zero}`) : t(`campaigns.config.${unit}`, { count: value });

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('campaigns.config.title')}
        </Typography>
        <Button
          variant="contained"
          onClick={() => void onSave()}
          disabled={saving || query.isLoading}
          data-testid="campaign-settings-save"
        >
          {t('campaigns.config.save')}
        </Button>
      </Stack>
      {query.isLoading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
          <CircularProgress size={24} aria-label={t('common.loading')} />
        </Box>
      ) : null}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('campaigns.config.intervals')}
        </Typography>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          {INTERVAL_FIELDS.map(({ field, options, zero, unit }) => (
            <TextField
              key={field}
              select
              fullWidth
              size="small"
              label={t(`campaigns.config.${field}`)}
              value={draft[field]}
              onChange={(e) => setDraft((d) => ({ ...d, [field]: Number(e.target.value) }))}
              slotProps={{ htmlInput: { 'data-testid': `campaign-settings-${field}` } }}
            >
              {/* a stored value outside the list still shows */}
              {(options.includes(draft[field]) ? options : [...options, draft[field]]).map((value) => (
                <MenuItem key={value} value={value} data-testid={`campaign-settings-${field}-${value}`}>
                  {optionLabel(value, zero, unit)}
                </MenuItem>
              ))}
            </TextField>
          ))}
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2">
          {t('campaigns.config.variables')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('campaigns.config.variablesHint')}
        </Typography>
        <Stack
          component="form"
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          alignItems={{ sm: 'flex-start' }}
          onSubmit={(e) => {
            e.preventDefault();
            onAdd();
          }}
        >
          <TextField
            size="small"
            label={t('campaigns.config.key')}
            value={candidate.key}
            onChange={(e) => setCandidate((c) => ({ ...c, key: e.target.value }))}
            error={problem !== null}
            helperText={problem ? t(`campaigns.config.${problem}`) : undefined}
            slotProps={{ htmlInput: { 'data-testid': 'campaign-variable-key', maxLength: 50 } }}
            sx={{ minWidth: { sm: 180 } }}
          />
          <TextField
            size="small"
            label={t('campaigns.config.value')}
            value={candidate.value}
            onChange={(e) => setCandidate((c) => ({ ...c, value: e.target.value }))}
            slotProps={{ htmlInput: { 'data-testid': 'campaign-variable-value', maxLength: 1000 } }}
            sx={{ flex: 1 }}
          />
          <Button
            type="submit"
            variant="outlined"
            startIcon={<Add />}
            disabled={!candidate.key.trim() || problem !== null}
            data-testid="campaign-variable-add"
            sx={{ flexShrink: 0, minHeight: 40 }}
          >
            {t('campaigns.config.addVariable')}
          </Button>
        </Stack>
        {draft.variables.length === 0 ? (
          <Typography color="text.secondary" sx={{ pt: 2 }} data-testid="campaign-variables-empty">
            {t('campaigns.config.noVariables')}
          </Typography>
        ) : (
          <Table size="small" sx={{ mt: 2, tableLayout: 'fixed' }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: '35%' }}>{t('campaigns.config.key')}</TableCell>
                <TableCell>{t('campaigns.config.value')}</TableCell>
                <TableCell sx={{ width: 56 }} />
              </TableRow>
            </TableHead>
            <TableBody>
              {draft.variables.map((v) => (
                <TableRow key={v.key} data-testid={`campaign-variable-${v.key}`}>
                  <TableCell sx={{ overflowWrap: 'anywhere', fontFamily: 'monospace' }}>{`{${v.key}}`}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{v.value}</TableCell>
                  <TableCell align="right" sx={{ px: 0.5 }}>
                    <Tooltip title={t('campaigns.config.removeVariable', { key: v.key })}>
                      <IconButton
                        size="small"
                        aria-label={t('campaigns.config.removeVariable', { key: v.key })}
                        onClick={() => setDraft((d) => ({ ...d, variables: removeVariable(d.variables, v.key) }))}
                        data-testid={`campaign-variable-remove-${v.key}`}
                      >
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Paper>
    </Box>
  );
};

export default CampaignsConfigPage;
