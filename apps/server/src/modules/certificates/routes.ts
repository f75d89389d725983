// HTTP shape of certificates (service.ts): the caller's list, awarding by hand, the public
// verification, and the public PDF (raw bytes, registered like the recordings' media route: out of the
// OpenAPI document, its refusal in the API's envelope). A periodic pass issues earned certificates
// (earn.ts) so they appear without anyone opening a page; every server process runs it, each issue
// being idempotent.
import type { FastifyPluginAsync, FastifySchema } from 'fastify';
import { apiRoutes } from '@mooz/contract/api-routes';
import { endpoints } from '@mooz/contract/endpoints';
import { errorEnvelope } from '@mooz/contract/envelope';
import { attachment } from '../../infrastructure/csv';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import { publicOrigin } from '../sessions';
import { earnAllDueCertificates, type CertificateTold } from './earn';
import { certificateFileName, certificatePdf } from './pdf';
import { certificatePagePath, type CertificatesService } from './service';

/** How often the periodic pass looks for batches that have ended. */
const earnEveryMs = 60 * 60 * 1000;

const refusals: FastifySchema = { hide: true, response: { 404: errorEnvelope } };

export const certificateRoutes: FastifyPluginAsync<{ certificates: CertificatesService; told: CertificateTold; earnEveryMs?: number }> = async (app, options) => {
  const { certificates, told } = options;
  route(app, endpoints.certificates.mine, (req) => certificates.mine(currentUser(req)));
  route(app, endpoints.certificates.award, (req) => certificates.award(currentUser(req), req.params.id, req.body));
  route(app, endpoints.certificates.verify, (req) => certificates.verify(req.params.id));

  app.route({
    method: 'GET',
    url: apiRoutes.certificates.pdf.path,
    schema: refusals,
    handler: async (request, reply) => {
      const row = await certificates.byId((request.params as { id: string }).id);
      const content = {
        id: row.id,
        studentName: row.studentName,
        courseName: row.courseName,
        teacherName: row.teacherName,
        startDate: row.startDate,
        endDate: row.endDate,
        issuedAt: row.issuedAt,
        kind: row.kind,
        verifyUrl: `${publicOrigin(app.config, request)}${certificatePagePath(row.id)}`,
      };
      const pdf = await certificatePdf(content);
      return reply
        .status(200)
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachment(certificateFileName(content)))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-cache')
        .send(Buffer.from(pdf));
    },
  });

  // One pass at a time, as the recordings' sweeper does: a slow pass is not overtaken by the next.
  const everyMs = options.earnEveryMs ?? earnEveryMs;
  let timer: NodeJS.Timeout | null = null;
  let pass: Promise<unknown> | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      if (pass) return;
      pass = earnAllDueCertificates(app.db, new Date(), told)
        .catch((error: unknown) => app.log.warn({ err: error }, 'the earned certificates pass failed; the next one tries again'))
        .finally(() => (pass = null));
    }, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await pass;
  });
};
