// Razorpay's hosted checkout (checkout.js), loaded on demand, opened with a subscription id. It
// calls back with the payment id, the subscription id and the signature, which the server verifies.
export interface RazorpaySuccess {
  razorpay_payment_id: string;
  razorpay_subscription_id: string;
  razorpay_signature: string;
}

interface RazorpayOptions {
  key: string;
  subscription_id: string;
  name: string;
  description: string;
  theme: { color: string };
  prefill?: { email?: string; name?: string };
  handler: (response: RazorpaySuccess) => void;
  modal?: { ondismiss?: () => void };
}

interface RazorpayInstance {
  open(): void;
  on(event: 'payment.failed', cb: (response: { error?: { description?: string } }) => void): void;
}

declare global {
  interface Window {
    Razorpay?: new (options: RazorpayOptions) => RazorpayInstance;
  }
}

const CHECKOUT_URL = 'https://checkout.razorpay.com/v1/checkout.js';
let loading: Promise<void> | null = null;

function loadCheckout(): Promise<void> {
  if (window.Razorpay) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = CHECKOUT_URL;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error('Could not load the payment form. Check your connection and try again.'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export type CheckoutOutcome = { kind: 'paid'; response: RazorpaySuccess } | { kind: 'dismissed' };

/**
 * Opens Razorpay's checkout for a subscription; resolves when the customer pays or closes it. A failed
 * attempt is reported through onFailed while the checkout stays open for another try.
 */
export async function openRazorpayCheckout(o: {
  keyId: string;
  subscriptionId: string;
  description: string;
  color: string;
  prefill?: { email?: string; name?: string };
  onFailed?: (message: string) => void;
}): Promise<CheckoutOutcome> {
  await loadCheckout();
  const Razorpay = window.Razorpay;
  if (!Razorpay) throw new Error('Could not load the payment form.');
  return new Promise<CheckoutOutcome>((resolve) => {
    let settled = false;
    const settle = (v: CheckoutOutcome) => {
      if (!settled) {
        settled = true;
        resolve(v);
      }
    };
    const rzp = new Razorpay({
      key: o.keyId,
      subscription_id: o.subscriptionId,
      name: 'Mailvet',
      description: o.description,
      theme: { color: o.color },
      prefill: o.prefill,
      handler: (response) => settle({ kind: 'paid', response }),
      modal: { ondismiss: () => settle({ kind: 'dismissed' }) },
    });
    rzp.on('payment.failed', (r) => o.onFailed?.(r.error?.description ?? 'The payment failed.'));
    rzp.open();
  });
}
