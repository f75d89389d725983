// Where orders are made. `razorpay` calls the provider's Orders API over HTTP; `sandbox` makes them
// locally (the default, for development and demos). Both are checked with the same signature rules.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentProvider as ProviderName } from '@mooz/contract/payments';
import { messages } from '@mooz/contract/messages';
import { HttpError } from '../../http/errors';

export interface OrderRequest {
  /** Minor units. */
  amount: number;
  currency: string;
  /** Our reference, at most 40 characters (the provider's limit): the subscription id. */
  receipt: string;
  notes: Record<string, string>;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** The public key the checkout is opened with. */
  readonly keyId: string;
  createOrder(order: OrderRequest): Promise<{ id: string }>;
}

interface ProviderSettings {
  provider: ProviderName;
  apiUrl: string;
  keyId: string;
  keySecret: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A provider-style id: a prefix and 14 random letters and digits, like `order_K3x9...`. */
export function providerId(prefix: string): string {
  const bytes = randomBytes(14);
  return `${prefix}_${Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

const unavailable = () => new HttpError(502, messages.paymentProviderUnavailable);
const ORDER_TIMEOUT_MS = 10_000;

function razorpayProvider(settings: ProviderSettings, log: FastifyBaseLogger, fetchImpl: typeof fetch = fetch): PaymentProvider {
  const endpoint = `${settings.apiUrl.replace(/\/+$/, '')}/v1/orders`;
  const authorization = `Basic ${Buffer.from(`${settings.keyId}:${settings.keySecret}`).toString('base64')}`;
  return {
    name: 'razorpay',
    keyId: settings.keyId,
    async createOrder(order) {
      let response: Response;
      try {
        response = await fetchImpl(endpoint, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(order),
          signal: AbortSignal.timeout(ORDER_TIMEOUT_MS),
        });
      } catch (error) {
        log.error({ err: error, endpoint }, 'payment provider unreachable');
        throw unavailable();
      }
      const body = (await response.json().catch(() => null)) as
        | { id?: unknown; amount?: unknown; currency?: unknown; error?: { description?: string } }
        | null;
      if (!response.ok) {
        log.error({ status: response.status, error: body?.error?.description }, 'payment provider refused the order');
        throw unavailable();
      }
      // The charge must be exactly the course price we asked for.
      if (typeof body?.id !== 'string' || body.amount !== order.amount || body.currency !== order.currency) {
        log.error({ body }, 'payment provider answered an unexpected order');
        throw unavailable();
      }
      return { id: body.id };
    },
  };
}

function sandboxProvider(settings: Pick<ProviderSettings, 'keyId'>): PaymentProvider {
  return {
    name: 'sandbox',
    keyId: settings.keyId,
    async createOrder() {
      return { id: providerId('order') };
    },
  };
}

export function createProvider(settings: ProviderSettings, log: FastifyBaseLogger): PaymentProvider {
  return settings.provider === 'razorpay' ? razorpayProvider(settings, log) : sandboxProvider(settings);
}
