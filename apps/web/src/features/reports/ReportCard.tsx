import { Box, Paper, Stack, Typography } from '@mui/material';
import type { TReportExport } from '@zelo/shared';
import type { ReactNode } from 'react';
import { ExportMenu } from './ExportMenu';

/** A titled card of the reports screen with its export menu at the right of the title. */
export const ReportCard = ({
  title,
  hint,
  report,
  params,
  testId,
  children,
}: {
  title: string;
  hint?: string;
  report: TReportExport;
  params: Record<string, string> | null;
  testId: string;
  children: ReactNode;
}) => (
  <Paper sx={{ p: 2, height: '100%', minWidth: 0, display: 'flex', flexDirection: 'column' }} data-testid={testId}>
    <Stack direction="row" alignItems="flex-start" spacing={1} sx={{ mb: 1 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography component="h2" variant="h6" color="primary">
          {title}
        </Typography>
        {hint ? (
          <Typography variant="body2" color="text.secondary">
            {hint}
          </Typography>
        ) : null}
      </Box>
      <ExportMenu report={report} what={title} params={params} testId={`${testId}-export`} />
    </Stack>
    <Box sx={{ flex: 1, minWidth: 0 }}>{children}</Box>
  </Paper>
);

/** The text a card shows when its report recorded nothing. */
export const EmptyNote = ({ text, testId }: { text: string; testId?: string }) => (
  <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }} data-testid={testId}>
    {text}
  </Typography>
);
