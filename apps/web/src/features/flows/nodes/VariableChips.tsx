import { Box, Chip, Stack, Typography } from '@mui/material';
import { useTranslation } from '../../../i18n/useTranslation';
import '../i18n';

/** `{{name}}` as it is typed in a text. */
export const variableToken = (name: string) => `{{${name}}}`;

/** Appends a variable to a text, with a space before it when the text does not end in one. */
export const insertVariable = (current: string, name: string) =>
  `${current}${current && !/\s$/.test(current) ? ' ' : ''}${variableToken(name)}`;

/**
 * The flow's `{{variable}}` list (the answer keys of its question nodes), shown where a text is typed; a click
 * puts the variable at the end of the text.
 */
export const VariableChips = ({ variables, onPick }: { variables: string[]; onPick: (name: string) => void }) => {
  const { t } = useTranslation();

  return (
    <Box data-testid="flow-variables">
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.5 }}>
        {variables.length > 0
          ? `${t('flows.variables.title')} — ${t('flows.variables.hint')}`
          : t('flows.variables.none')}
      </Typography>
      <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
        {variables.map((name) => (
          <Chip
            key={name}
            size="small"
            variant="outlined"
            color="primary"
            label={variableToken(name)}
            onClick={() => onPick(name)}
            data-testid={`flow-variable-${name}`}
          />
        ))}
      </Stack>
    </Box>
  );
};
