// The one layout of every notification and receipt mail: a model (greeting, paragraphs, a table of
// figures, a button, a footer) rendered twice, as MJML for the HTML part (mjml makes the markup mail
// clients need) and as plain text, so both parts always say the same thing. Words come translated.
import mjml2html from 'mjml';
import { escapeHtml } from '../../infrastructure/mail-text';

export interface MailModel {
  /** The language of the words, for the HTML's lang attribute. */
  language: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** Label and value rows (a receipt's figures). */
  rows?: { label: string; value: string; strong?: boolean }[];
  /** Items of a digest, each with its own link. */
  items?: { text: string; href: string | null }[];
  action?: { label: string; href: string };
  footer: string[];
  /** Footer links (manage preferences, unsubscribe). */
  footerLinks?: { label: string; href: string }[];
}

const brand = '#1c64c0';
const ink = '#1e2433';
const muted = '#5f6778';

const text = (s: string, attrs = '') => `<mj-text ${attrs}>${escapeHtml(s)}</mj-text>`;

function mjmlOf(model: MailModel): string {
  const rows = model.rows?.length
    ? `<mj-table font-size="14px" color="${ink}" cellpadding="6px">${model.rows
        .map(
          (r) =>
            // Labels on one line (a narrow column broke German words mid-word); long values wrap instead.
            `<tr style="border-bottom:1px solid #e6e8ee"><td style="color:${muted};white-space:nowrap;padding-inline-end:16px;vertical-align:top">${escapeHtml(r.label)}</td>` +
            `<td style="text-align:end;overflow-wrap:anywhere${r.strong ? ';font-weight:700' : ''}">${escapeHtml(r.value)}</td></tr>`,
        )
        .join('')}</mj-table>`
    : '';
  const items = model.items?.length
    ? `<mj-text><ul style="padding-inline-start:20px;margin:0">${model.items
        .map((i) => `<li style="margin-bottom:6px">${i.href ? `<a href="${escapeHtml(i.href)}" style="color:${brand}">${escapeHtml(i.text)}</a>` : escapeHtml(i.text)}</li>`)
        .join('')}</ul></mj-text>`
    : '';
  const action = model.action
    ? `<mj-button href="${escapeHtml(model.action.href)}" background-color="${brand}" border-radius="6px" font-weight="600">${escapeHtml(model.action.label)}</mj-button>`
    : '';
  const links = (model.footerLinks ?? []).map((l) => `<a href="${escapeHtml(l.href)}" style="color:${muted}">${escapeHtml(l.label)}</a>`).join(' · ');
  return `<mjml lang="${escapeHtml(model.language)}">
  <mj-head>
    <mj-title>${escapeHtml(model.subject)}</mj-title>
    <mj-attributes>
      <mj-all font-family="-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" />
      <mj-text font-size="15px" line-height="1.5" color="${ink}" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f5f9">
    <mj-section padding="24px 0 8px"><mj-column>${text('Mooz', `font-size="22px" font-weight="700" color="${brand}"`)}</mj-column></mj-section>
    <mj-section background-color="#ffffff" border-radius="10px" padding="16px 8px">
      <mj-column>
        ${text(model.greeting)}
        ${model.paragraphs.map((p) => text(p)).join('\n        ')}
        ${rows}
        ${items}
        ${action}
      </mj-column>
    </mj-section>
    <mj-section padding="8px 0 24px">
      <mj-column>
        ${model.footer.map((f) => text(f, `font-size="12px" color="${muted}"`)).join('\n        ')}
        ${links ? `<mj-text font-size="12px" color="${muted}">${links}</mj-text>` : ''}
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
}

function plainTextOf(model: MailModel): string {
  const width = Math.max(0, ...(model.rows ?? []).map((r) => r.label.length));
  const blocks = [
    model.greeting,
    ...model.paragraphs,
    model.rows?.length ? model.rows.map((r) => `${r.label.padEnd(width)}  ${r.value}`).join('\n') : '',
    model.items?.length ? model.items.map((i) => `- ${i.text}${i.href ? `\n  ${i.href}` : ''}`).join('\n') : '',
    model.action ? `${model.action.label}:\n${model.action.href}` : '',
    '--',
    ...model.footer,
    ...(model.footerLinks ?? []).map((l) => `${l.label}: ${l.href}`),
  ];
  return `${blocks.filter(Boolean).join('\n\n')}\n`;
}

/** The HTML and text parts of one model. */
export async function renderMail(model: MailModel): Promise<{ subject: string; text: string; html: string }> {
  const result = await mjml2html(mjmlOf(model), { validationLevel: 'strict' });
  return { subject: model.subject, text: plainTextOf(model), html: result.html };
}
