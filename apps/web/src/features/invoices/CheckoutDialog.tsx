import { CheckCircle, ContentCopy } from '@mui/icons-material';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  Grid,
  Stack,
  Step,
  StepLabel,
  Stepper,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import {
  events,
  RECURRENCE_MONTHS,
  type TCheckoutDataForm,
  type TCompany,
  type TInvoice,
  type TPaymentEvent,
  type TPixCheckout,
  type TPlan,
  ZCheckoutDataForm,
} from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { FormTextField, useSchemaForm } from '../../components/kit';
import { toast, toastError } from '../../components/toast';
import { formatDateOnly } from '../settings/companies/dueDate';
import './i18n';
import { formatMoney, startCheckout, useInvoice, useOwnCompany, usePlanChoices } from './useInvoices';

const STEPS = ['data', 'customize', 'review', 'pix'] as const;
/** spec 1 §2: the wizard opens on the plan step */
const FIRST_STEP = 1;

/** what the server will charge: the invoice's value, or another plan's monthly value times the recurrence */
export const checkoutAmount = (invoice: TInvoice, company: TCompany, plan: TPlan | undefined) => {
  if (!plan || plan.id === company.planId) return invoice.value;

  return Math.round(plan.value * (RECURRENCE_MONTHS[company.recurrence] ?? 1) * 100) / 100;
};

type TCheckoutDialogProps = { invoiceId: number | null; onClose: () => void };

/** The checkout wizard of one invoice: data, customise plan, review, then the Pix code until it is paid. */
export const CheckoutDialog = ({ invoiceId, onClose }: TCheckoutDialogProps) => {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));

  return (
    <Dialog
      open={invoiceId !== null}
      onClose={onClose}
      maxWidth="md"
      fullWidth
      fullScreen={phone}
      scroll="paper"
      data-testid="checkout-dialog"
    >
      {invoiceId !== null && <CheckoutLoader invoiceId={invoiceId} onClose={onClose} />}
    </Dialog>
  );
};

const CheckoutLoader = ({ invoiceId, onClose }: { invoiceId: number; onClose: () => void }) => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const invoice = useInvoice(invoiceId);
  const company = useOwnCompany(user?.companyId, true);
  const plans = usePlanChoices(true);
  if (invoice.error || company.error) {
    return (
      <>
        <DialogContent dividers>
          <Alert severity="error">{invoice.error ? t('invoices.checkout.notFound') : String(company.error)}</Alert>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('invoices.close')}</Button>
        </DialogActions>
      </>
    );
  }
  if (!invoice.data || !company.data || !plans.data) {
    return (
      <DialogContent sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={t('invoices.checkout.loading')} />
      </DialogContent>
    );
  }

  return <CheckoutWizard invoice={invoice.data} company={company.data} plans={plans.data} onClose={onClose} />;
};

type TWizardProps = { invoice: TInvoice; company: TCompany; plans: TPlan[]; onClose: () => void };

export const CheckoutWizard = ({ invoice, company, plans, onClose }: TWizardProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { refreshUser } = useAuth();
  const [step, setStep] = useState<number>(FIRST_STEP);
  const [payer, setPayer] = useState<TCheckoutDataForm>({
    firstName: company.billingName || company.name,
    email: company.email,
    cpfCnpj: company.cpfCnpj,
  });
  const [planId, setPlanId] = useState<number | null>(company.planId ?? plans[0]?.id ?? null);
  const [pix, setPix] = useState<TPixCheckout | null>(null);
  const [paying, setPaying] = useState(false);
  const [notConfigured, setNotConfigured] = useState(false);
  const plan = plans.find((p) => p.id === planId);
  const amount = checkoutAmount(invoice, company, plan);

  useSocketEvent(events.payment(company.id), (data: TPaymentEvent) => {
    if (data?.action !== 'CONCLUIDA') return;
    toast.success(t('invoices.renewed', { date: formatDateOnly(data.company.dueDate) }));
    void refreshUser();
    onClose();
    void navigate('/');
  });

  const toReview = () => {
    if (!ZCheckoutDataForm.safeParse(payer).success) {
      toast.warning(t('invoices.checkout.dataMissing'));
      setStep(0);
      return;
    }
    setStep(2);
  };

  const pay = async () => {
    if (!plan) return;
    setPaying(true);
    try {
      const parsed = ZCheckoutDataForm.parse(payer);
      setPix(await startCheckout({ invoiceId: invoice.id, ...parsed, planId: plan.id }));
      setStep(3);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_BILLING_NOT_CONFIGURED') setNotConfigured(true);
      toastError(err);
    } finally {
      setPaying(false);
    }
  };

  return (
    <>
      <DialogTitle>{t('invoices.checkout.title')}</DialogTitle>
      <DialogContent dividers>
        <Stepper activeStep={step} alternativeLabel sx={{ mb: 3 }}>
          {STEPS.map((s) => (
            <Step key={s}>
              <StepLabel>{t(`invoices.checkout.steps.${s}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {notConfigured && (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="checkout-not-configured">
            {t('invoices.checkout.notConfigured')}
          </Alert>
        )}
        {step === 0 && (
          <DataStep
            payer={payer}
            onDone={(values) => {
              setPayer(values);
              setStep(1);
            }}
          />
        )}
        {step === 1 && <PlanStep plans={plans} company={company} selected={planId} onSelect={setPlanId} />}
        {step === 2 && plan && (
          <ReviewStep invoice={invoice} company={company} plan={plan} payer={payer} amount={amount} />
        )}
        {step === 3 && pix && <PixStep pix={pix} />}
      </DialogContent>
      <DialogActions>
        {step === 0 && (
          <Button type="submit" form="checkout-data" variant="contained" data-testid="checkout-next">
            {t('invoices.checkout.NEXT')}
          </Button>
        )}
        {step === 1 && (
          <>
            <Button onClick={() => setStep(0)} data-testid="checkout-back">
              {t('invoices.checkout.BACK')}
            </Button>
            <Button variant="contained" onClick={toReview} disabled={!plan} data-testid="checkout-next">
              {t('invoices.checkout.NEXT')}
            </Button>
          </>
        )}
        {step === 2 && (
          <>
            <Button onClick={() => setStep(1)} data-testid="checkout-back">
              {t('invoices.checkout.BACK')}
            </Button>
            <Button
              variant="contained"
              onClick={() => void pay()}
              disabled={paying}
              startIcon={paying ? <CircularProgress size={16} /> : undefined}
              data-testid="checkout-pay"
            >
              {t('invoices.checkout.PAY')}
            </Button>
          </>
        )}
        {step === 3 && (
          <Button onClick={onClose} data-testid="checkout-close">
            {t('invoices.close')}
          </Button>
        )}
      </DialogActions>
    </>
  );
};

const DataStep = ({ payer, onDone }: { payer: TCheckoutDataForm; onDone: (values: TCheckoutDataForm) => void }) => {
  const { t } = useTranslation();
  const { form, submit } = useSchemaForm({
    schema: ZCheckoutDataForm,
    defaultValues: payer,
    onSubmit: async (values) => onDone(values),
  });

  return (
    <Box component="form" id="checkout-data" onSubmit={submit} noValidate>
      <Typography variant="h6" gutterBottom>
        {t('invoices.checkout.dataTitle')}
      </Typography>
      <Stack spacing={2}>
        <FormTextField form={form} name="firstName" label={t('invoices.checkout.firstName')} testId="checkout-name" />
        <FormTextField form={form} name="email" label={t('invoices.checkout.email')} testId="checkout-email" />
        <FormTextField
          form={form}
          name="cpfCnpj"
          label={t('invoices.checkout.cpfCnpj')}
          helperText={t('invoices.checkout.cpfCnpjHint')}
          testId="checkout-cpfcnpj"
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      </Stack>
    </Box>
  );
};

type TPlanStepProps = { plans: TPlan[]; company: TCompany; selected: number | null; onSelect: (id: number) => void };

const PlanStep = ({ plans, company, selected, onSelect }: TPlanStepProps) => {
  const { t } = useTranslation();

  return (
    <>
      <Typography variant="h6" gutterBottom>
        {t('invoices.checkout.customizeTitle')}
      </Typography>
      <Grid container spacing={2}>
        {plans.map((p) => {
          const chosen = p.id === selected;

          return (
            <Grid key={p.id} size={{ xs: 12, sm: 6, md: 4 }}>
              <Card
                variant="outlined"
                sx={{ borderColor: chosen ? 'primary.main' : undefined, borderWidth: chosen ? 2 : 1 }}
                data-testid={`checkout-plan-${p.id}`}
              >
                <CardContent>
                  <Typography variant="h6" align="center">
                    {p.name}
                  </Typography>
                  {p.id === company.planId && (
                    <Typography variant="caption" color="text.secondary" align="center" component="p">
                      {t('invoices.checkout.current')}
                    </Typography>
                  )}
                  <Typography variant="h5" align="center" sx={{ my: 1 }}>
                    {formatMoney(p.value)}
                    <Typography component="span" variant="body2" color="text.secondary">
                      /{t('invoices.checkout.month')}
                    </Typography>
                  </Typography>
                  <Typography variant="body2" align="center">
                    {p.users} {t('invoices.checkout.users')} · {p.connections} {t('invoices.checkout.connections')} ·{' '}
                    {p.queues} {t('invoices.checkout.queues')}
                  </Typography>
                </CardContent>
                <CardActions>
                  <Button
                    fullWidth
                    variant={chosen ? 'contained' : 'outlined'}
                    onClick={() => onSelect(p.id)}
                    startIcon={chosen ? <CheckCircle /> : undefined}
                    data-testid={`checkout-select-${p.id}`}
                  >
                    {chosen ? t('invoices.checkout.selected') : t('invoices.checkout.select')}
                  </Button>
                </CardActions>
              </Card>
            </Grid>
          );
        })}
      </Grid>
    </>
  );
};

type TReviewProps = { invoice: TInvoice; company: TCompany; plan: TPlan; payer: TCheckoutDataForm; amount: number };

const ReviewStep = ({ invoice, company, plan, payer, amount }: TReviewProps) => {
  const { t } = useTranslation();
  const line = (label: string, value: string) => (
    <Stack direction="row" justifyContent="space-between" spacing={2}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography sx={{ textAlign: 'right', wordBreak: 'break-word' }}>{value}</Typography>
    </Stack>
  );

  return (
    <Stack spacing={1.5}>
      <Typography variant="h6">{t('invoices.checkout.reviewTitle')}</Typography>
      {line(t('invoices.checkout.invoice'), `#${invoice.id} · ${invoice.detail} · ${formatDateOnly(invoice.dueDate)}`)}
      {line(t('invoices.checkout.payer'), `${payer.firstName} · ${payer.cpfCnpj}`)}
      {line(t('invoices.checkout.plan'), plan.name)}
      <Divider />
      <Stack direction="row" justifyContent="space-between">
        <Typography variant="h6">{t('invoices.checkout.total')}</Typography>
        <Typography variant="h6" data-testid="checkout-total">
          {formatMoney(amount)}
        </Typography>
      </Stack>
      {plan.id !== company.planId && (
        <Alert severity="info">{t('invoices.checkout.planChangeNote', { name: plan.name })}</Alert>
      )}
      <Typography variant="caption" color="text.secondary">
        {t('invoices.checkout.priceNote')}
      </Typography>
    </Stack>
  );
};

export const PixStep = ({ pix }: { pix: TPixCheckout }) => {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(pix.qrcode.qrcode);
      setCopied(true);
      setTimeout(() => setCopied(false), 1000);
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Stack spacing={2} alignItems="center" data-testid="checkout-pix">
      <Stack direction="row" spacing={2} alignItems="baseline">
        <Typography variant="overline">{t('invoices.checkout.total')}</Typography>
        <Typography variant="h5" component="strong" data-testid="checkout-pix-amount">
          {formatMoney(pix.amount)}
        </Typography>
      </Stack>
      <Box
        component="img"
        src={pix.qrcode.imagemQrcode}
        alt={t('invoices.checkout.qrAlt')}
        sx={{ width: 220, maxWidth: '100%', bgcolor: '#fff', p: 1, borderRadius: 1 }}
        data-testid="checkout-pix-qr"
      />
      <TextField
        label={t('invoices.checkout.copyCode')}
        value={pix.qrcode.qrcode}
        fullWidth
        multiline
        maxRows={4}
        slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'checkout-pix-code' } }}
      />
      <Button
        variant="outlined"
        onClick={() => void copy()}
        startIcon={copied ? <CheckCircle /> : <ContentCopy />}
        data-testid="checkout-pix-copy"
      >
        {copied ? t('invoices.checkout.copied') : t('invoices.checkout.copy')}
      </Button>
      <Stack direction="row" spacing={1} alignItems="center">
        <CircularProgress size={18} />
        <Typography data-testid="checkout-waiting">{t('invoices.checkout.waiting')}</Typography>
      </Stack>
      <Typography variant="body2" color="text.secondary" align="center">
        {t('invoices.checkout.finish')}
      </Typography>
    </Stack>
  );
};
