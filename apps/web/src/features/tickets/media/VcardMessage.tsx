import { Avatar, Box, Divider, Stack, Typography } from '@mui/material';
import { parseVcard } from '../messageLogic';

/** A shared contact card: name and phone numbers. */
export const VcardMessage = ({ body }: { body: string }) => {
  const card = parseVcard(body);

  return (
    <Box data-testid="message-vcard" sx={{ minWidth: 200 }}>
      <Stack direction="row" spacing={1.5} alignItems="center" sx={{ py: 0.5 }}>
        <Avatar>{card.name.slice(0, 1).toUpperCase()}</Avatar>
        <Box>
          <Typography variant="subtitle2">{card.name || '—'}</Typography>
          {card.numbers.map((number) => (
            <Typography key={number} variant="body2" color="text.secondary">
              {number}
            </Typography>
          ))}
        </Box>
      </Stack>
      <Divider />
    </Box>
  );
};
