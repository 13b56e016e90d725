import type { KioskOrder } from '../../../../shared/kiosk-api.ts';
import type { Translator } from '../../i18n/translate.ts';

/**
 * The payment method in words (issue 5 "Paid"; receipts, issue 6). The platform gives `payment_method.type`
 * (account_money, credit_card, debit_card, prepaid_card, bank_transfer, …) and `payment_method.id`, a method or card
 * brand id (seed 2.8: "Payment method or card brand id": visa, master, debvisa, pix, account_money, …). An id with
 * words of its own (pix, account_money) wins; otherwise the type in words with the brand beside it. Ids and types
 * this table does not know fall back to "another method (<id>)", never to a raw key.
 */
export function paymentMethodText(method: KioskOrder['paymentMethod'], { t, lookup }: Pick<Translator, 't' | 'lookup'>): string {
  const id = method?.id ?? null;
  const type = method?.type ?? null;
  const own = id ? lookup(`sale.method.${id}`) : null;
  if (own) return own;
  const typeWords = type ? lookup(`sale.method.${type}`) : null;
  const brand = id ? lookup(`sale.brand.${id}`) : null;
  if (typeWords && brand) return t('sale.method.withBrand', { method: typeWords, brand });
  if (typeWords ?? brand) return (typeWords ?? brand) as string;
  if (id ?? type) return t('sale.method.other', { id: (id ?? type) as string });
  return t('sale.method.unknown');
}
