import { Box, CircularProgress, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/useTranslation';
import { Navigate, useParams } from 'react-router';
import '../i18n';
import { loadFlow } from '../flowsApi';
import { FlowEditor } from './FlowEditor';

/** /flowbuilder/:id (spec 3 §2.8): loads the flow, then the editor; a spinner meanwhile. */
const FlowEditorPage = () => {
  const { t } = useTranslation();
  const { id } = useParams();
  const flowId = Number(id);
  const valid = Number.isInteger(flowId) && flowId > 0;
  const query = useQuery({
    queryKey: ['flows', 'document', flowId],
    queryFn: () => loadFlow(flowId),
    enabled: valid,
    // the editor holds the document from here on; a refetch must not reset the canvas
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });

  if (id === undefined) {
    return <Navigate to="/flowbuilders" replace />;
  }
  if (!valid || query.isError) {
    return (
      <Box sx={{ p: 4, textAlign: 'center' }} data-testid="flow-not-found">
        <Typography color="text.secondary">{t('flows.editor.notFound')}</Typography>
      </Box>
    );
  }
  if (!query.data) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }} data-testid="flow-loading">
        <CircularProgress />
      </Box>
    );
  }

  return <FlowEditor key={flowId} flow={query.data} />;
};

export default FlowEditorPage;
