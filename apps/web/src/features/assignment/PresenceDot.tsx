import { Box, Typography } from '@mui/material';
import { useTranslation } from '../../i18n/useTranslation';
import './i18n';
import { PRESENCE_COLOR, presenceOf } from './presence';
import { Hint } from '../../components/Hint';

/** A colleague's presence as a coloured dot with its word (available, away, offline) for screen readers. */
export const PresenceDot = ({
  user,
  testId,
  withLabel = false,
  tooltip = true,
}: {
  user: { online: boolean; away?: boolean };
  testId?: string;
  /** the word beside the dot (tables), instead of a tooltip */
  withLabel?: boolean;
  /** false inside a control that has its own tooltip */
  tooltip?: boolean;
}) => {
  const { t } = useTranslation();
  const presence = presenceOf(user);
  const label = t(`assignment.presence.${presence}`);
  const dot = (
    <Box
      component="span"
      role="img"
      aria-label={label}
      data-testid={testId}
      data-presence={presence}
      sx={{
        display: 'inline-block',
        width: 10,
        height: 10,
        borderRadius: '50%',
        bgcolor: PRESENCE_COLOR[presence],
        border: 1,
        borderColor: 'background.paper',
        flexShrink: 0,
      }}
    />
  );
  if (withLabel) {
    return (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
        {dot}
        <Typography component="span" variant="body2" aria-hidden>
          {label}
        </Typography>
      </Box>
    );
  }

  return tooltip ? <Hint title={label}>{dot}</Hint> : dot;
};
