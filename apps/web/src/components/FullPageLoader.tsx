import { Box, CircularProgress } from '@mui/material';

export const FullPageLoader = () => (
  <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
    <CircularProgress data-testid="page-loading" />
  </Box>
);
