/*
 * Bulk enrolment's routes (decision 045). The multipart parser is registered
 * in this plugin's own context: only these two routes accept a multipart
 * body, every other route keeps refusing one. The upload is read by the
 * service only after the trial check, whole into memory within
 * PARTICIPANT_IMPORT_LIMITS.maxBytes (one file, a few short fields).
 */
import fastifyMultipart from '@fastify/multipart';
import {
  IMPORT_MESSAGES,
  importApplyResultSchema,
  importPreviewSchema,
  importTemplateQuerySchema,
  PARTICIPANT_IMPORT_LIMITS,
} from '@trialwear/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../access/errors.js';
import type { AppContext } from '../../app-context.js';
import { actorOf } from '../../http/actor.js';
import { idSchema } from '../../http/params.js';
import { applyImport, importTemplate, previewImport, type ReadUpload } from './import-service.js';

const tags = ['participants'];
const params = z.object({ trialId: idSchema });
const base = '/api/trials/:trialId/participants/import';
const UPLOAD =
  'multipart/form-data: `file`, a CSV (UTF-8) or XLSX whose first row is the header codeSuffix,email,gender,age,notes';

/**
 * The multipart body as the OpenAPI document shows it. Its parts are read by the service (uploadOf), after
 * the trial check; a multipart request's body is null (not parsed into an object), so everything is optional here.
 */
const uploadBody = z
  .object({
    file: z.string().optional().meta({ format: 'binary', description: 'the CSV or XLSX file (required)' }),
    previewDigest: z
      .string()
      .optional()
      .meta({ description: "apply: the preview's previewDigest (required)" }),
  })
  .nullish();

/** The two upload routes' schema. */
const uploadRoute = <T extends z.ZodType>(summary: string, answer: T) => ({
  schema: {
    tags,
    summary: `${summary} ${UPLOAD}`,
    consumes: ['multipart/form-data'],
    params,
    body: uploadBody,
    response: { 200: answer },
  },
});

/** The request's file (its first) and text fields; a file over the byte limit is the 413 with the limit's message. */
const uploadOf =
  (request: FastifyRequest): ReadUpload =>
  async () => {
    if (!request.isMultipart())
      throw new AppError(400, IMPORT_MESSAGES.noFile, 'ValidationError', { displayToUser: true });
    let file: Buffer | null = null;
    const fields: Record<string, string> = {};
    try {
      for await (const part of request.parts()) {
        // Every file part is consumed (the iterator waits for it), the first kept; the limits allow one.
        if (part.type === 'file') {
          const bytes = await part.toBuffer();
          file ??= bytes;
        } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      }
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
        throw new AppError(413, IMPORT_MESSAGES.tooBig, 'ValidationError', {
          displayToUser: true,
          errors: [{ path: 'file', message: IMPORT_MESSAGES.tooBig }],
        });
      throw err;
    }
    return { file, fields };
  };

export async function registerParticipantImportRoutes(app: FastifyInstance, ctx: AppContext) {
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: {
        fileSize: PARTICIPANT_IMPORT_LIMITS.maxBytes,
        files: 1,
        fields: 4,
        fieldSize: 1024,
        parts: 5,
        headerPairs: 20,
      },
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.post(
      `${base}/preview`,
      uploadRoute(
        "Preview a file of participants: each row's verdict with the add-participant call's messages, nothing created.",
        importPreviewSchema,
      ),
      async (request) => previewImport(ctx, actorOf(request), request.params.trialId, uploadOf(request)),
    );

    r.post(
      `${base}/apply`,
      uploadRoute(
        'Create the valid rows of a previewed file in one transaction; 409 and nothing created if a verdict changed since the preview. With `previewDigest` from the preview.',
        importApplyResultSchema,
      ),
      async (request) => applyImport(ctx, actorOf(request), request.params.trialId, uploadOf(request)),
    );

    r.get(
      `${base}/template`,
      {
        schema: {
          tags,
          summary: 'The import template: the header row codeSuffix,email,gender,age,notes as CSV or XLSX',
          params,
          querystring: importTemplateQuerySchema,
        },
      },
      async (request, reply) => {
        const t = await importTemplate(ctx, actorOf(request), request.params.trialId, request.query.format);
        return reply
          .header('content-type', t.contentType)
          .header('content-disposition', `attachment; filename="${t.fileName}"`)
          .send(t.body);
      },
    );
  });
}
