import TranslateIcon from '@mui/icons-material/Translate';
import { Button, IconButton, ListItemText, Menu, MenuItem } from '@mui/material';
import { LANGUAGES, type TLanguage } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../i18n/useTranslation';
import { changeLanguage, currentLanguage } from '../i18n';
import { Hint } from './Hint';

type LanguagePickerProps = {
  /** called after the interface language changed (the top bar also saves it on the server) */
  onChanged?: (lang: TLanguage) => void;
  /** a text button (login screens) instead of an icon */
  variant?: 'icon' | 'text';
};

export const LanguagePicker = ({ onChanged, variant = 'icon' }: LanguagePickerProps) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = currentLanguage();
  const choose = (lang: TLanguage) => {
    setAnchor(null);
    void changeLanguage(lang).then((switched) => switched && onChanged?.(lang));
  };

  return (
    <>
      {variant === 'text' ? (
        <Button
          color="inherit"
          startIcon={<TranslateIcon />}
          onClick={(e) => setAnchor(e.currentTarget)}
          data-testid="language-picker"
        >
          {t(`language.${current}`)}
        </Button>
      ) : (
        <Hint title={t('language.label')}>
          <IconButton
            color="inherit"
            onClick={(e) => setAnchor(e.currentTarget)}
            aria-label={t('language.label')}
            data-testid="language-picker"
          >
            <TranslateIcon />
          </IconButton>
        </Hint>
      )}
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((lang) => (
          <MenuItem key={lang} selected={lang === current} onClick={() => choose(lang)} data-testid={`lang-${lang}`}>
            <ListItemText>{t(`language.${lang}`)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
