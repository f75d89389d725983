import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../lib/auth-store';
import { AwardCertificateButton } from './award-certificate';

// Without i18n set up, t() answers its keys, so the texts are checked by key.
type Student = Parameters<typeof AwardCertificateButton>[0]['student'];
const student = (over: Partial<Student> = {}): Student => ({
  id: 7,
  name: 'Nadia Student',
  batch: { end_date: '2030-02-26' },
  batch_ended: true,
  certificate: null,
  ...over,
});

let calls: { url: string; body: unknown }[];
const wrap = (who: 'teacher' | 'admin', over: Partial<Student> = {}) => {
  useAuthStore.setState({ user: { id: 1, user_type: who } });
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>
        <MemoryRouter>
          <AwardCertificateButton courseId={3} courseName="Pottery" student={student(over)} />
        </MemoryRouter>
      </MantineProvider>
    </QueryClientProvider>,
  );
};

beforeEach(() => {
  localStorage.setItem('accessToken', 'token');
  calls = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const data = { id: 'ABCDEFGHJKMNPQRS', verify_url: '/certificates/ABCDEFGHJKMNPQRS' };
    return new Response(JSON.stringify({ data, message: 'Certificate awarded' }), { status: 201 });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useAuthStore.setState({ user: null });
});

describe('the certificate cell of a student', () => {
  it('offers no award to a teacher before the batch has ended, and says when it can be', () => {
    wrap('teacher', { batch_ended: false });
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByTestId('certificate-not-yet')).toHaveTextContent('certificateAward.notYet');
  });

  it('offers the award once the batch has ended, and sends no reason', async () => {
    wrap('teacher');
    fireEvent.click(screen.getByTestId('award-certificate'));
    fireEvent.click(await screen.findByTestId('award-certificate-confirm'));
    await waitFor(() => expect(calls).toEqual([{ url: '/api/courses/3/certificates/', body: { student_id: 7 } }]));
    expect(await screen.findByTestId('certificate-awarded-link')).toHaveAttribute('href', '/certificates/ABCDEFGHJKMNPQRS');
  });

  it('links the certificate a student has already instead of offering another', () => {
    wrap('admin', { certificate: { id: 'X', verify_url: '/certificates/X' } });
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByTestId('certificate-awarded-link')).toHaveAttribute('href', '/certificates/X');
  });

  it('lets an admin award early only with a reason, which is sent', async () => {
    wrap('admin', { batch_ended: false });
    fireEvent.click(screen.getByTestId('award-certificate-early'));
    fireEvent.click(await screen.findByTestId('award-certificate-confirm'));
    expect(await screen.findByText('certificateAward.reasonRequired')).toBeInTheDocument();
    expect(calls).toEqual([]);
    fireEvent.change(screen.getByTestId('award-certificate-reason'), { target: { value: ' Moving abroad ' } });
    fireEvent.click(screen.getByTestId('award-certificate-confirm'));
    await waitFor(() =>
      expect(calls).toEqual([{ url: '/api/courses/3/certificates/', body: { student_id: 7, reason: 'Moving abroad' } }]),
    );
  });
});
