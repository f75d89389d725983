// What a file is, by its bytes; what it is called and served as; links that expire and cannot be
// moved to another file or signed with a recording link's key.
import { describe, expect, it } from 'vitest';
import { linkSignature } from '../recordings/links';
import { fileLinkTtlSeconds, fileMimeType, signedFileUrl, sniffKind, storedFileName, verifyFileLink } from './files';

const bytes = (...values: number[]) => Buffer.from(values);

describe('sniffKind', () => {
  it('knows each kind by its signature, whatever the rest', () => {
    expect(sniffKind(Buffer.from('%PDF-1.7\n'))).toBe('pdf');
    expect(sniffKind(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0))).toBe('png');
    expect(sniffKind(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toBe('jpeg');
    expect(sniffKind(Buffer.from('GIF89a\x01\x00', 'latin1'))).toBe('gif');
    expect(sniffKind(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('webp');
    expect(sniffKind(Buffer.from('PK\x03\x04\x14\x00', 'latin1'))).toBe('zip');
    expect(sniffKind(Buffer.from('PK\x05\x06' + '\x00'.repeat(18), 'latin1'))).toBe('zip');
    expect(sniffKind(Buffer.from('Olá\tmundo\r\n你好\n'))).toBe('text');
  });

  it('refuses programs, other media, binary and broken text, and nothing at all', () => {
    expect(sniffKind(Buffer.from('MZ\x90\x00', 'latin1'))).toBeNull();
    expect(sniffKind(Buffer.from('\x7fELF\x02\x01', 'latin1'))).toBeNull();
    expect(sniffKind(bytes(0x1a, 0x45, 0xdf, 0xa3))).toBeNull(); // WebM
    expect(sniffKind(Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'))).toBeNull();
    expect(sniffKind(bytes(0xc3, 0x28))).toBeNull(); // invalid UTF-8
    expect(sniffKind(Buffer.from('text with a NUL\x00', 'latin1'))).toBeNull();
    expect(sniffKind(Buffer.alloc(0))).toBeNull();
    // A character cut by the end of the head is not broken text.
    expect(sniffKind(Buffer.from('abc€').subarray(0, 5))).toBe('text');
  });
});

describe('names and types', () => {
  it('keep an extension the kind allows, replace one it does not, add one when there is none', () => {
    expect(storedFileName('brief.pdf', 'png')).toBe('brief.png');
    expect(storedFileName('Photo.JPEG', 'jpeg')).toBe('Photo.jpeg');
    expect(storedFileName('page.html', 'text')).toBe('page.txt');
    expect(storedFileName('notes', 'text')).toBe('notes.txt');
    expect(storedFileName('v1.2 final report', 'pdf')).toBe('v1.2 final report.pdf');
    expect(storedFileName('../../etc/passwd', 'text')).toBe('etc passwd.txt');
    expect(storedFileName('a\u0000b<c>.docx', 'zip')).toBe('a b c.docx');
    expect(storedFileName('', 'gif')).toBe('file.gif');
    expect(storedFileName('...', 'pdf')).toBe('file.pdf');
    expect(storedFileName(`${'x'.repeat(300)}.pdf`, 'pdf')).toBe(`${'x'.repeat(120)}.pdf`);
  });

  it('serve a ZIP by its document type, text as UTF-8', () => {
    expect(fileMimeType('zip', 'a.xlsx')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(fileMimeType('zip', 'a.odt')).toBe('application/vnd.oasis.opendocument.text');
    expect(fileMimeType('zip', 'a.zip')).toBe('application/zip');
    expect(fileMimeType('text', 'a.txt')).toBe('text/plain; charset=utf-8');
    expect(fileMimeType('webp', 'a.webp')).toBe('image/webp');
  });
});

describe('file links', () => {
  const secret = 'a-secret-long-enough-for-the-tests-000000';
  const key = 'assignments/0b6c8a4e-1f0a-4c3e-9d1b-2f3a4b5c6d7e';
  const parse = (url: string) => {
    const parsed = new URL(url, 'http://x');
    return { token: decodeURIComponent(parsed.pathname.split('/').at(-1)!), query: Object.fromEntries(parsed.searchParams) };
  };

  it('open their file until they expire', () => {
    const now = new Date('2026-04-01T10:00:00.700Z');
    const { token, query } = parse(signedFileUrl(secret, { kind: 's', id: 42 }, key, now));
    expect(token).toBe('s42-0b6c8a4e-1f0a-4c3e-9d1b-2f3a4b5c6d7e');
    const signedAt = Math.floor(now.getTime() / 1000);
    expect(Number(query.expires)).toBe(signedAt + fileLinkTtlSeconds);
    expect(verifyFileLink(secret, token, query, signedAt + fileLinkTtlSeconds - 1)).toEqual({ owner: { kind: 's', id: 42 }, key });
    expect(verifyFileLink(secret, token, query, signedAt + fileLinkTtlSeconds)).toBeNull();
  });

  it('cannot be moved to another owner or file, nor signed with the recordings’ key', () => {
    const { token, query } = parse(signedFileUrl(secret, { kind: 'a', id: 7 }, key));
    const now = Date.now() / 1000;
    expect(verifyFileLink(secret, token.replace('a7-', 'a8-'), query, now)).toBeNull();
    expect(verifyFileLink(secret, token.replace('a7-', 's7-'), query, now)).toBeNull();
    expect(verifyFileLink(secret, token.replace(/.$/, (c) => (c === 'e' ? 'f' : 'e')), query, now)).toBeNull();
    expect(verifyFileLink(secret, token, { ...query, expires: String(Number(query.expires) + 1) }, now)).toBeNull();
    expect(verifyFileLink(secret, token, { expires: query.expires }, now)).toBeNull();
    expect(verifyFileLink(secret, token, { ...query, signature: [query.signature] }, now)).toBeNull();
    const recordingKeyed = linkSignature(secret, 'recording', `${token}\n${query.expires}`).toString('base64url');
    expect(verifyFileLink(secret, token, { ...query, signature: recordingKeyed }, now)).toBeNull();
    expect(verifyFileLink(secret, 'a0-0b6c8a4e-1f0a-4c3e-9d1b-2f3a4b5c6d7e', query, now)).toBeNull();
    expect(verifyFileLink(secret, 'a99999999999-0b6c8a4e-1f0a-4c3e-9d1b-2f3a4b5c6d7e', query, now)).toBeNull();
  });
});
