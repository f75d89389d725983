// Receipts: what a buyer is told after a verified payment (the receipt) and after a refund (the refund
// note), both as mails and, for the receipt, a PDF (receipt-pdf.ts) downloadable from the profile's
// purchases list. The figures come from the subscription row itself, the one place the payment lives,
// so the mail, the PDF and the admin's list cannot disagree. The seller is configuration (SELLER_*).
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Purchase } from '@mooz/contract/notifications';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { courses, subscriptions, users } from '../../db/schema/index';
import type { Mail } from '../../infrastructure/mail';
import { mailLanguage, mailTranslator } from '../../infrastructure/mail-text';
import { renderMail } from './mail-layout';
import { formatMoney } from './notice-mails';

export type Seller = Config['seller'];

export interface ReceiptFacts {
  subscriptionId: string;
  receiptNumber: string;
  courseId: number;
  courseName: string;
  teacherId: number;
  batch: 'weekdays' | 'weekends';
  startDate: string;
  endDate: string;
  /** "Mon–Fri 18:00" or "Sat 10:00, Sun 11:00", as chosen. */
  times: { time: string | null; saturdayTime: string | null; sundayTime: string | null };
  amount: number;
  currency: string;
  /** The tax included in the amount, when a rate is configured. */
  tax: { label: string; rate: number; amount: number } | null;
  orderId: string;
  paymentId: string | null;
  paidAt: Date | null;
  refundedAt: Date | null;
  buyer: { id: number; name: string; email: string; phone: string | null; firstName: string; language: string | null };
  seller: Seller;
}

/** MZ-20261128-1A2B3C4D: the day it was paid and the subscription, so one payment has one number. */
const receiptNumberOf = (subscriptionId: string, paidAt: Date | null) =>
  `MZ-${(paidAt ?? new Date(0)).toISOString().slice(0, 10).replace(/-/g, '')}-${subscriptionId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;

/** The tax part of a tax-inclusive amount, in minor units. */
const includedTax = (amount: number, rate: number) => Math.round((amount * rate) / (100 + rate));

const columns = {
  subscription: subscriptions,
  course: { id: courses.id, name: courses.name, teacherId: courses.teacherId },
  buyer: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, phone: users.phone, language: users.language },
};
type Row = { subscription: typeof subscriptions.$inferSelect; course: { id: number; name: string; teacherId: number }; buyer: { id: number; firstName: string; lastName: string; email: string; phone: string | null; language: string | null } };

function factsOf(row: Row, seller: Seller): ReceiptFacts {
  const s = row.subscription;
  return {
    subscriptionId: s.id,
    receiptNumber: receiptNumberOf(s.id, s.activatedAt),
    courseId: row.course.id,
    courseName: row.course.name,
    teacherId: row.course.teacherId,
    batch: s.batch,
    startDate: s.startDate,
    endDate: s.endDate,
    times: { time: s.time, saturdayTime: s.saturdayTime, sundayTime: s.sundayTime },
    amount: s.amount,
    currency: s.currency,
    tax: seller.taxRate > 0 ? { label: seller.taxLabel, rate: seller.taxRate, amount: includedTax(s.amount, seller.taxRate) } : null,
    orderId: s.orderId,
    paymentId: s.paymentId,
    paidAt: s.activatedAt,
    refundedAt: s.refundedAt,
    buyer: { id: row.buyer.id, name: `${row.buyer.firstName} ${row.buyer.lastName}`.trim(), email: row.buyer.email, phone: row.buyer.phone, firstName: row.buyer.firstName, language: row.buyer.language },
    seller,
  };
}

/** One paid or refunded purchase with everything its receipt says; null for anything else. */
export async function receiptFacts(executor: Pick<Database, 'select'>, subscriptionId: string, seller: Seller): Promise<ReceiptFacts | null> {
  const [row] = await executor
    .select(columns)
    .from(subscriptions)
    .innerJoin(courses, eq(courses.id, subscriptions.courseId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(eq(subscriptions.id, subscriptionId), inArray(subscriptions.status, ['active', 'refunded'])));
  return row ? factsOf(row, seller) : null;
}

/** The caller's purchases, newest first (the profile's list). */
export async function purchasesOf(db: Database, userId: number, seller: Seller): Promise<Purchase[]> {
  const rows = await db
    .select(columns)
    .from(subscriptions)
    .innerJoin(courses, eq(courses.id, subscriptions.courseId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, ['active', 'refunded'])))
    .orderBy(desc(subscriptions.activatedAt), desc(subscriptions.createdAt));
  return rows.map((row) => {
    const f = factsOf(row, seller);
    return {
      id: f.subscriptionId,
      course_id: f.courseId,
      course_name: f.courseName,
      batch: f.batch,
      start_date: f.startDate,
      end_date: f.endDate,
      amount: f.amount,
      currency: f.currency,
      status: row.subscription.status === 'refunded' ? 'refunded' : 'paid',
      order_id: f.orderId,
      payment_id: f.paymentId,
      paid_at: f.paidAt?.toISOString() ?? null,
      refunded_at: f.refundedAt?.toISOString() ?? null,
      receipt_number: f.receiptNumber,
    };
  });
}

/** The schedule chosen, in the reader's words: "Weekdays, 18:00" / "Weekends, Sat 10:00, Sun 11:00". */
function scheduleLine(facts: ReceiptFacts, language: string | null): string {
  const t = mailTranslator(language);
  if (facts.batch === 'weekdays') return t('receipt.weekdays', { time: facts.times.time ?? '' });
  return t('receipt.weekends', { saturday: facts.times.saturdayTime ?? '', sunday: facts.times.sundayTime ?? '' });
}

const dayOf = (isoDay: string, language: string | null) =>
  new Intl.DateTimeFormat(mailLanguage(language), { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${isoDay}T00:00:00Z`));

/** The labelled figures of a receipt, in the reader's language: the mail's table and the PDF's lines. */
export function receiptRows(facts: ReceiptFacts, language: string | null, money = (amount: number) => formatMoney(amount, facts.currency, language)) {
  const t = mailTranslator(language);
  const rows: { label: string; value: string; strong?: boolean }[] = [
    { label: t('receipt.number'), value: facts.receiptNumber },
    { label: t('receipt.course'), value: facts.courseName },
    { label: t('receipt.batch'), value: scheduleLine(facts, language) },
    { label: t('receipt.dates'), value: `${dayOf(facts.startDate, language)} – ${dayOf(facts.endDate, language)}` },
  ];
  if (facts.tax) {
    rows.push({ label: t('receipt.net'), value: money(facts.amount - facts.tax.amount) });
    rows.push({ label: t('receipt.tax', { label: facts.tax.label, rate: facts.tax.rate }), value: money(facts.tax.amount) });
  }
  rows.push({ label: t('receipt.total'), value: money(facts.amount), strong: true });
  rows.push({ label: t('receipt.currency'), value: facts.currency });
  rows.push({ label: t('receipt.order'), value: facts.orderId });
  if (facts.paymentId) rows.push({ label: t('receipt.payment'), value: facts.paymentId });
  // Written out in the reader's language, as the batch's dates are (the day in UTC, as the receipt number's).
  if (facts.paidAt) rows.push({ label: t('receipt.paidAt'), value: dayOf(facts.paidAt.toISOString().slice(0, 10), language) });
  if (facts.refundedAt) rows.push({ label: t('receipt.refundedAt'), value: dayOf(facts.refundedAt.toISOString().slice(0, 10), language) });
  rows.push({ label: t('receipt.buyer'), value: [facts.buyer.name, facts.buyer.email, facts.buyer.phone].filter(Boolean).join(', ') });
  rows.push({
    label: t('receipt.seller'),
    value: [facts.seller.name, facts.seller.address, facts.seller.taxId && t('receipt.taxId', { id: facts.seller.taxId })].filter(Boolean).join(', '),
  });
  return rows;
}

/** The receipt mail (`paid`) or the refund note (`refunded`). */
export async function receiptMail(facts: ReceiptFacts, origin: string, kind: 'paid' | 'refunded'): Promise<Mail> {
  const language = facts.buyer.language;
  const t = mailTranslator(language);
  const words = { course: facts.courseName, amount: formatMoney(facts.amount, facts.currency, language), number: facts.receiptNumber };
  const rendered = await renderMail({
    language: mailLanguage(language),
    subject: t(kind === 'paid' ? 'receipt.subject' : 'refund.subject', words),
    greeting: t('greeting', { name: facts.buyer.firstName }),
    paragraphs: [t(kind === 'paid' ? 'receipt.intro' : 'refund.intro', words), ...(kind === 'refunded' ? [t('refund.access', words)] : [])],
    rows: receiptRows(facts, language),
    action: { label: t('receipt.download'), href: `${origin}/profile#purchases` },
    footer: [t('notice.footer.always')],
    footerLinks: [{ label: t('notice.footer.manage'), href: `${origin}/profile#mail-preferences` }],
  });
  return { to: facts.buyer.email, ...rendered };
}
