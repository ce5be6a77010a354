import { Search } from '@mui/icons-material';
import { Box, Button, InputAdornment, Stack, TextField, Typography } from '@mui/material';
import type { ReactNode } from 'react';

type TListPageProps = {
  title: ReactNode;
  /** the search box (see `useSearch`) */
  search?: { value: string; onChange: (value: string) => void; placeholder: string; testId?: string };
  /** the add button */
  add?: { label: string; onClick: () => void; testId?: string };
  /** further buttons beside the add button */
  actions?: ReactNode;
  children: ReactNode;
};

/** A list screen: title, search box and buttons on one line (stacked on a phone), then the list. */
export const ListPage = ({ title, search, add, actions, children }: TListPageProps) => (
  <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, p: { xs: 1, sm: 2 }, gap: 2 }}>
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }} alignItems={{ sm: 'center' }}>
      <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
        {title}
      </Typography>
      {search && (
        <TextField
          size="small"
          placeholder={search.placeholder}
          value={search.value}
          onChange={(e) => search.onChange(e.target.value)}
          slotProps={{
            htmlInput: { 'data-testid': search.testId, 'aria-label': search.placeholder },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
      {(actions || add) && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', justifyContent: 'flex-end' }}>
          {actions}
          {add && (
            <Button variant="contained" onClick={add.onClick} data-testid={add.testId}>
              {add.label}
            </Button>
          )}
        </Stack>
      )}
    </Stack>
    {children}
  </Box>
);
