// Loads Paystack's inline script on demand (never in the first download) and opens its pop-up.
export const PAYSTACK_SCRIPT_URL = 'https://js.paystack.co/v1/inline.js';

interface PaystackHandler {
  openIframe: () => void;
}
interface PaystackPop {
  setup: (options: Record<string, unknown>) => PaystackHandler;
}
declare global {
  interface Window {
    PaystackPop?: PaystackPop;
  }
}

let loading: Promise<boolean> | null = null;

/** Resolves true once window.PaystackPop exists, false when the script cannot be loaded. */
export function loadPaystack(): Promise<boolean> {
  if (window.PaystackPop) return Promise.resolve(true);
  loading ??= new Promise<boolean>((resolve) => {
    const script = document.createElement('script');
    script.src = PAYSTACK_SCRIPT_URL;
    script.async = true;
    script.onload = () => resolve(!!window.PaystackPop);
    script.onerror = () => {
      loading = null;
      script.remove();
      resolve(false);
    };
    document.head.appendChild(script);
  });
  return loading;
}

export interface PaystackPopupOptions {
  key: string;
  email: string;
  amount: number;
  reference: string;
  accessCode?: string;
  onSuccess: (reference: string) => void;
  onClose: () => void;
}

export function openPaystackPopup(options: PaystackPopupOptions): boolean {
  if (!window.PaystackPop) return false;
  const handler = window.PaystackPop.setup({
    key: options.key,
    email: options.email,
    amount: options.amount,
    currency: 'ZAR',
    ref: options.reference,
    ...(options.accessCode ? { access_code: options.accessCode } : {}),
    callback: (response: { reference?: string }) => options.onSuccess(response.reference ?? options.reference),
    onClose: options.onClose,
  });
  handler.openIframe();
  return true;
}
