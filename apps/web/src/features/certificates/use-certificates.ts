// Server state of certificates: the public verification of one id (no token, so anyone can open it),
// and a teacher's award of a course's certificate to one of its students.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { AwardCertificateBody } from '@mooz/contract/certificates';
import { ApiError, call } from '../../lib/api';

const certificateKeys = {
  all: ['certificates'] as const,
  verification: (id: string) => ['certificates', 'verify', id] as const,
};

export function useCertificateVerification(id: string) {
  return useQuery({
    queryKey: certificateKeys.verification(id),
    queryFn: ({ signal }) => call(apiRoutes.certificates.verify, { params: { id }, signal, auth: false }),
    enabled: id.trim().length > 0,
    // A 404 (never issued) or a 400 (not an id) will not change by asking again.
    retry: (failures, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
  });
}

export function useAwardCertificate(courseId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AwardCertificateBody) => call(apiRoutes.certificates.award, { params: { id: courseId }, body }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: certificateKeys.all }),
        // The students list says who has a certificate.
        client.invalidateQueries({ predicate: (query) => query.queryKey.includes('students') }),
        client.invalidateQueries({ predicate: (query) => /^dashboard/.test(String(query.queryKey[0])) }),
      ]),
  });
}

/** Whether a failed verification means "no certificate with this id". */
export const isUnknownCertificate = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);
