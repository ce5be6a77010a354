import { Button, Grid, type GridProps } from '@mui/material';
import { useTranslation } from '../../i18n/useTranslation';

type TInlineFormButtonsProps = {
  /** editing a row: "cancel"; adding one: "clear" */
  isEdit: boolean;
  onDone: () => void;
  isSubmitting: boolean;
  /** prefix of the buttons' test ids: `<testId>-clear`, `<testId>-save` */
  testId: string;
  size?: GridProps['size'];
};

/** The clear (or cancel) and save buttons that end a settings tab's form, on the right. */
export const InlineFormButtons = ({ isEdit, onDone, isSubmitting, testId, size = 12 }: TInlineFormButtonsProps) => {
  const { t } = useTranslation();

  return (
    <Grid
      size={size}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', justifyContent: 'flex-end', ml: 'auto' }}
    >
      <Button color="inherit" onClick={onDone} data-testid={`${testId}-clear`}>
        {isEdit ? t('settings.actions.cancel') : t('settings.actions.clear')}
      </Button>
      <Button type="submit" variant="contained" disabled={isSubmitting} data-testid={`${testId}-save`}>
        {t('settings.actions.save')}
      </Button>
    </Grid>
  );
};
